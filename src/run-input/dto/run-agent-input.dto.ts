import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { MAX_ID_LENGTH } from '../../common/max-id-length';
import { STRING_BOUNDS } from '../../common/string-bounds';
import { MessageList, type MessageDto } from './message.dto';
import { FreeForm } from './free-form.decorator';
import { IsNotNull, OptionalKey } from './optional-key.decorator';

// The AG-UI 1.0 RunAgentInput envelope (docs/behaviour/run-input.md#envelope) with the original's documented rule of
// non-empty threadId/runId (docs/architecture.md#decisions). `forwardedProps` is only required to be non-null here:
// its iac-code shape is checked separately, with its own error message (docs/behaviour/http.md#request-checks steps 8–9).

export class ToolDto {
  @IsString() name!: string;
  @IsString() description!: string;
  /** JSON Schema, opaque. */
  @OptionalKey() @IsNotNull() @FreeForm() parameters?: unknown;
  @OptionalKey() @IsObject() @FreeForm() metadata?: Record<string, unknown>;
}

export class ContextDto {
  @IsString() description!: string;
  @IsString() value!: string;
}

export class ResumeEntryDto {
  @IsString() @MaxLength(MAX_ID_LENGTH) interruptId!: string;
  @IsIn(['resolved', 'cancelled']) status!: 'resolved' | 'cancelled';
  @OptionalKey() @IsNotNull() @FreeForm() payload?: unknown;
  @OptionalKey() @IsObject() @FreeForm() metadata?: Record<string, unknown>;
}

export class RunAgentInputDto {
  @IsString() @MinLength(1) @MaxLength(MAX_ID_LENGTH) threadId!: string;
  @IsString() @MinLength(1) @MaxLength(MAX_ID_LENGTH) runId!: string;
  @OptionalKey() @IsString() @MaxLength(STRING_BOUNDS.text) protocolVersion?: string;
  @OptionalKey() @IsString() @MaxLength(MAX_ID_LENGTH) parentRunId?: string;
  /** Any JSON value; AG-UI 1.0 reads a null state as absent. Accepted and ignored (docs/behaviour/run-input.md#envelope). */
  @Allow() @FreeForm() state?: unknown;
  @MessageList() messages!: MessageDto[];
  @OptionalKey()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ToolDto)
  tools?: ToolDto[];
  @OptionalKey()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ContextDto)
  context?: ContextDto[];
  @OptionalKey() @IsNotNull() @FreeForm() forwardedProps?: unknown;
  @OptionalKey()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ResumeEntryDto)
  resume?: ResumeEntryDto[];
}

/**
 * Every top-level key the envelope knows. AG-UI 1.0's `RunAgentInputSchema` is a loose object (and the
 * published adapter accepts extra keys), so a key outside this set is dropped before validation instead
 * of refused; the `Record` makes a new DTO field fail to compile until it is listed here.
 */
export const RUN_AGENT_INPUT_KEYS: ReadonlySet<string> = new Set(
  Object.keys({
    threadId: true,
    runId: true,
    protocolVersion: true,
    parentRunId: true,
    state: true,
    messages: true,
    tools: true,
    context: true,
    forwardedProps: true,
    resume: true,
  } satisfies Record<keyof RunAgentInputDto, true>),
);
