import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Equals,
  IsArray,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { MAX_ID_LENGTH } from '../../common/max-id-length';
import { STRING_BOUNDS } from '../../common/string-bounds';
import { FreeForm } from './free-form.decorator';
import { IsNeverValid, IsNotNull, OptionalKey } from './optional-key.decorator';

// AG-UI 1.0 content parts and their sources (docs/behaviour/run-input.md#envelope). Only the shapes are checked
// here; which parts a run may actually use is decided inside the stream (docs/behaviour/run-input.md#user-message, docs/architecture.md#decisions).

export class DataSourceDto {
  @Equals('data') type!: 'data';
  @IsString() value!: string;
  @IsString() @MaxLength(STRING_BOUNDS.text) mimeType!: string;
}

export class UrlSourceDto {
  @Equals('url') type!: 'url';
  @IsString() value!: string;
  @OptionalKey() @IsString() @MaxLength(STRING_BOUNDS.text) mimeType?: string;
}

export class FileSourceDto {
  @Equals('file') type!: 'file';
  @IsString() value!: string;
  @OptionalKey() @IsString() @MaxLength(STRING_BOUNDS.text) provider?: string;
  @OptionalKey() @IsString() @MaxLength(STRING_BOUNDS.text) mimeType?: string;
}

/** What class-transformer builds for a source whose `type` is unknown: it never validates. */
export class UnknownSourceDto {
  @IsNeverValid() type?: unknown;
}

export const MEDIA_PART_TYPES = ['image', 'audio', 'video', 'document'] as const;

export class TextPartDto {
  @Equals('text') type!: 'text';
  @IsString() text!: string;
  @OptionalKey() @IsString() @MaxLength(MAX_ID_LENGTH) id?: string;
  @OptionalKey() @IsNotNull() @FreeForm() metadata?: unknown;
}

export class MediaPartDto {
  @IsIn(MEDIA_PART_TYPES) type!: (typeof MEDIA_PART_TYPES)[number];
  @IsObject()
  @ValidateNested()
  @Type(() => UnknownSourceDto, {
    discriminator: {
      property: 'type',
      subTypes: [
        { name: 'data', value: DataSourceDto },
        { name: 'url', value: UrlSourceDto },
        { name: 'file', value: FileSourceDto },
      ],
    },
    keepDiscriminatorProperty: true,
  })
  source!: DataSourceDto | UrlSourceDto | FileSourceDto;
  @OptionalKey() @IsString() @MaxLength(MAX_ID_LENGTH) id?: string;
  @OptionalKey() @IsNotNull() @FreeForm() metadata?: unknown;
}

const hasBinaryPayload = (_value: unknown, args?: ValidationArguments): boolean => {
  const part = args?.object as Record<string, unknown> | undefined;
  return ['id', 'url', 'data'].some((key) => typeof part?.[key] === 'string');
};

/**
 * The pre-1.0 `binary` part. 1.0 has none, but 0.0.x clients (CopilotKit among them) still send it, so a
 * server must accept it (docs/behaviour/run-input.md#envelope); like 0.0.x, it needs one of id, url or data.
 */
export class BinaryPartDto {
  @Equals('binary')
  @ValidateBy({ name: 'hasBinaryPayload', validator: { validate: hasBinaryPayload } })
  type!: 'binary';
  @IsString() @MaxLength(STRING_BOUNDS.text) mimeType!: string;
  @OptionalKey() @IsString() @MaxLength(MAX_ID_LENGTH) id?: string;
  @OptionalKey() @IsString() url?: string;
  @OptionalKey() @IsString() data?: string;
  @OptionalKey() @IsString() @MaxLength(STRING_BOUNDS.text) filename?: string;
}

/** What class-transformer builds for a part whose `type` is unknown: it never validates. */
export class UnknownPartDto {
  @IsNeverValid() type?: unknown;
}

/**
 * `content: string | ContentPart[]` (user and tool messages). A string skips the array rules; anything
 * else must be an array of objects, each validated as the part its `type` names.
 */
export function MessageContent(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ValidateIf((_object: object, value: unknown) => typeof value !== 'string'),
    IsArray(),
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    Type(() => UnknownPartDto, {
      discriminator: {
        property: 'type',
        subTypes: [
          { name: 'text', value: TextPartDto },
          ...MEDIA_PART_TYPES.map((name) => ({ name, value: MediaPartDto })),
          { name: 'binary', value: BinaryPartDto },
        ],
      },
      keepDiscriminatorProperty: true,
    }),
  ];
  return (target, propertyKey) => decorators.forEach((decorate) => decorate(target, propertyKey));
}
