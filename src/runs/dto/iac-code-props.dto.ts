import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Equals,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { OptionalKey } from './optional-key.decorator';

// forwardedProps.iacCode with exactly the seed's fields (reference §2.2 minus the Gen B rows, which are
// rejected like any unknown key — DESIGN "Which generation"). `@IsOptional()` marks the nullable fields;
// `@OptionalKey()` the ones that may be absent but never null.

/** Length in Unicode code points, as the original's Python `len` counts (validator.js counts otherwise). */
function HasCodePointLength(min: number, max: number): PropertyDecorator {
  return ValidateBy({
    name: 'hasCodePointLength',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && [...value].length >= min && [...value].length <= max,
    },
  });
}

export class ThinkingDto {
  @OptionalKey() @IsBoolean() enabled?: boolean;
  @IsOptional() @IsString() effort?: string | null;
  @IsOptional() @IsInt() @Min(1) budget?: number | null;
}

export class AlibabaCloudDto {
  @IsOptional() @IsString() accessKeyId?: string | null;
  @IsOptional() @IsString() accessKeySecret?: string | null;
  @IsOptional() @IsString() securityToken?: string | null;
  @IsOptional() @IsString() regionId?: string | null;
}

export class IacCodePropsDto {
  @Equals(1) schemaVersion!: 1;
  @IsString() @HasCodePointLength(1, 256) rosInvocationId!: string;
  @IsString() cwd!: string;
  @IsOptional() @IsString() model?: string | null;
  @IsOptional() @IsString() llmApiKey?: string | null;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => ThinkingDto) thinking?: ThinkingDto | null;
  @IsOptional() @IsString() userId?: string | null;
  @IsOptional() @IsString() channel?: string | null;
  @IsOptional() @IsString() preferredLanguage?: string | null;
  @IsOptional() @IsIn(['standard', 'rich']) candidatePresentation?: 'standard' | 'rich' | null;
  @IsOptional() @IsIn(['normal', 'pipeline']) runMode?: 'normal' | 'pipeline' | null;
  @IsOptional() @IsString() pipelineName?: string | null;
  @OptionalKey() @IsBoolean() cleanupOnly?: boolean;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AlibabaCloudDto)
  alibabaCloud?: AlibabaCloudDto | null;
}

/** `forwardedProps` is exactly `{ iacCode }` (reference §2.2: extra keys forbidden). */
export class ForwardedPropsDto {
  @IsObject() @ValidateNested() @Type(() => IacCodePropsDto) iacCode!: IacCodePropsDto;
}
