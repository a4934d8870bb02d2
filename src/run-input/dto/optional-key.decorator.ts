import { ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * The key may be absent; when present, every other rule on the property applies — to `null` too.
 * AG-UI 1.0 optional fields reject `null` (docs/behaviour/run-input.md#envelope), which class-validator's
 * `@IsOptional()` would let through; `@IsOptional()` stays for the nullable iacCode fields (docs/behaviour/run-input.md#forwardedpropsiaccode).
 */
export function OptionalKey(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** Any JSON value except `null`: AG-UI 1.0's `z.any().refine(v => v !== null)` (payload, parameters, …). */
export function IsNotNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isNotNull', validator: { validate: (value: unknown) => value !== null } },
    options,
  );
}

/** Never valid: the fallback class of a discriminated union, so an unknown discriminator value fails. */
export function IsNeverValid(): PropertyDecorator {
  return ValidateBy({ name: 'isNeverValid', validator: { validate: () => false } });
}
