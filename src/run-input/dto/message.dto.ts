import 'reflect-metadata';
import { Type } from 'class-transformer';
import { Equals, IsArray, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { MessageContent, type BinaryPartDto, type MediaPartDto, type TextPartDto } from './content-part.dto';
import { FreeForm } from './free-form.decorator';
import { MAX_ID_LENGTH } from '../../common/max-id-length';
import { STRING_BOUNDS } from '../../common/string-bounds';
import { IsNeverValid, OptionalKey } from './optional-key.decorator';

// Every AG-UI 1.0 message role parses, because HttpAgent resends the whole conversation on every run
// (docs/architecture.md#decisions); field lists follow @ag-ui/core 1.0.0 (docs/behaviour/run-input.md#envelope).

type ContentPartDto = TextPartDto | MediaPartDto | BinaryPartDto;

export class FunctionCallDto {
  @IsString() @MaxLength(STRING_BOUNDS.text) name!: string;
  @IsString() arguments!: string;
}

export class ToolCallDto {
  @IsString() @MaxLength(MAX_ID_LENGTH) id!: string;
  @Equals('function') type!: 'function';
  @IsObject() @ValidateNested() @Type(() => FunctionCallDto) function!: FunctionCallDto;
  @OptionalKey() @IsString() encryptedValue?: string;
  @OptionalKey() @IsObject() @FreeForm() metadata?: Record<string, unknown>;
}

abstract class MessageFields {
  @IsString() @MaxLength(MAX_ID_LENGTH) id!: string;
  @OptionalKey() @IsString() @MaxLength(MAX_ID_LENGTH) subagentRunId?: string;
  @OptionalKey() @IsObject() @FreeForm() metadata?: Record<string, unknown>;
}

abstract class EncryptableMessageFields extends MessageFields {
  @OptionalKey() @IsString() encryptedValue?: string;
}

abstract class NamedMessageFields extends EncryptableMessageFields {
  @OptionalKey() @IsString() @MaxLength(STRING_BOUNDS.text) name?: string;
}

export class DeveloperMessageDto extends NamedMessageFields {
  @Equals('developer') role!: 'developer';
  @IsString() content!: string;
}

export class SystemMessageDto extends NamedMessageFields {
  @Equals('system') role!: 'system';
  @IsString() content!: string;
}

export class AssistantMessageDto extends NamedMessageFields {
  @Equals('assistant') role!: 'assistant';
  @OptionalKey() @IsString() content?: string;
  @OptionalKey()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ToolCallDto)
  toolCalls?: ToolCallDto[];
}

export class UserMessageDto extends NamedMessageFields {
  @Equals('user') role!: 'user';
  @MessageContent() content!: string | ContentPartDto[];
}

export class ToolMessageDto extends EncryptableMessageFields {
  @Equals('tool') role!: 'tool';
  @MessageContent() content!: string | ContentPartDto[];
  @IsString() @MaxLength(MAX_ID_LENGTH) toolCallId!: string;
  @OptionalKey() @IsString() error?: string;
}

export class ActivityMessageDto extends MessageFields {
  @Equals('activity') role!: 'activity';
  @IsString() @MaxLength(STRING_BOUNDS.text) activityType!: string;
  /** Free-form: any non-array object (the client never sends these, but a history may hold them). */
  @IsObject() @FreeForm() content!: Record<string, unknown>;
}

export class ReasoningMessageDto extends EncryptableMessageFields {
  @Equals('reasoning') role!: 'reasoning';
  @IsString() content!: string;
}

/** What class-transformer builds for a message whose `role` is unknown: it never validates. */
export class UnknownRoleMessageDto {
  @IsNeverValid() role?: unknown;
}

export type MessageDto =
  | DeveloperMessageDto
  | SystemMessageDto
  | AssistantMessageDto
  | UserMessageDto
  | ToolMessageDto
  | ActivityMessageDto
  | ReasoningMessageDto;

/** `messages: Message[]`, each validated as the class its `role` names. */
export function MessageList(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    IsArray(),
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    Type(() => UnknownRoleMessageDto, {
      discriminator: {
        property: 'role',
        subTypes: [
          { name: 'developer', value: DeveloperMessageDto },
          { name: 'system', value: SystemMessageDto },
          { name: 'assistant', value: AssistantMessageDto },
          { name: 'user', value: UserMessageDto },
          { name: 'tool', value: ToolMessageDto },
          { name: 'activity', value: ActivityMessageDto },
          { name: 'reasoning', value: ReasoningMessageDto },
        ],
      },
      keepDiscriminatorProperty: true,
    }),
  ];
  return (target, propertyKey) => decorators.forEach((decorate) => decorate(target, propertyKey));
}
