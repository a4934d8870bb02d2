import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  Equals,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { exceedsCodePoints, MAX_LLM_HEADERS, STRING_BOUNDS } from '../../common/string-bounds';
import { FreeForm } from './free-form.decorator';
import { OptionalKey } from './optional-key.decorator';

// forwardedProps.iacCode with the original's documented fields plus those of the published adapter 0.16.0 (`llmHeaders`,
// `activeGuidance`); later fields that no release has are rejected like any unknown key. `@IsOptional()`
// marks the nullable fields; `@OptionalKey()` the ones that may be absent but never null.

/** Length in Unicode code points, as the original's Python `len` counts (validator.js counts otherwise). */
function HasCodePointLength(min: number, max: number): PropertyDecorator {
  return ValidateBy({
    name: 'hasCodePointLength',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && value.length >= min && !exceedsCodePoints(value, max),
    },
  });
}

/**
 * A JSON object of string values (Python's strict `dict[str, str]`), at most MAX_LLM_HEADERS entries with
 * names and values within their bounds (docs/behaviour/bounds.md). Checked on the value as sent: the
 * transformer copies nothing of it (so no key such as `__proto__` or `constructor` is lost or acted on),
 * and the `Transform` hands the validator the original object.
 */
function IsStringRecord(): PropertyDecorator {
  const decorators = [
    FreeForm(),
    Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]),
    ValidateBy({
      name: 'isStringRecord',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          isBoundedStringRecord(value as Record<string, unknown>),
      },
    }),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

function isBoundedStringRecord(record: Record<string, unknown>): boolean {
  const entries = Object.entries(record);
  return (
    entries.length <= MAX_LLM_HEADERS &&
    entries.every(
      ([name, value]) =>
        typeof value === 'string' &&
        !exceedsCodePoints(name, STRING_BOUNDS.headerName) &&
        !exceedsCodePoints(value, STRING_BOUNDS.secret),
    )
  );
}

const Text = () => MaxLength(STRING_BOUNDS.text);
const Secret = () => MaxLength(STRING_BOUNDS.secret);

export class ThinkingDto {
  @OptionalKey() @IsBoolean() enabled?: boolean;
  @IsOptional() @IsString() @Text() effort?: string | null;
  @IsOptional() @IsInt() @Min(1) budget?: number | null;
}

export class AlibabaCloudDto {
  @IsOptional() @IsString() @Text() accessKeyId?: string | null;
  @IsOptional() @IsString() @Secret() accessKeySecret?: string | null;
  @IsOptional() @IsString() @Secret() securityToken?: string | null;
  @IsOptional() @IsString() @Text() regionId?: string | null;
}

export class IacCodePropsDto {
  @Equals(1) schemaVersion!: 1;
  @IsString() @HasCodePointLength(1, STRING_BOUNDS.rosInvocationId) rosInvocationId!: string;
  @IsString() cwd!: string;
  @IsOptional() @IsString() @Text() model?: string | null;
  @IsOptional() @IsString() @Secret() llmApiKey?: string | null;
  /** Extra headers for the LLM provider: secrets, forwarded to A2A only, never stored or logged. */
  @IsOptional() @IsStringRecord() llmHeaders?: Record<string, string> | null;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => ThinkingDto) thinking?: ThinkingDto | null;
  @IsOptional() @IsString() @Text() userId?: string | null;
  @IsOptional() @IsString() @Text() channel?: string | null;
  @IsOptional() @IsString() @Text() preferredLanguage?: string | null;
  @IsOptional() @IsIn(['standard', 'rich']) candidatePresentation?: 'standard' | 'rich' | null;
  @IsOptional() @IsIn(['normal', 'pipeline']) runMode?: 'normal' | 'pipeline' | null;
  @IsOptional() @IsString() @Text() pipelineName?: string | null;
  @OptionalKey() @IsBoolean() cleanupOnly?: boolean;
  /** A guidance run: the newest user message goes into the thread's live Pipeline task. */
  @OptionalKey() @IsBoolean() activeGuidance?: boolean;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AlibabaCloudDto)
  alibabaCloud?: AlibabaCloudDto | null;
}

/** `forwardedProps` is exactly `{ iacCode }` (docs/behaviour/run-input.md#forwardedpropsiaccode: extra keys forbidden). */
export class ForwardedPropsDto {
  @IsObject() @ValidateNested() @Type(() => IacCodePropsDto) iacCode!: IacCodePropsDto;
}
