import 'reflect-metadata';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { OpaqueJsonValue } from './free-form.decorator';

/**
 * Strict: unknown keys are errors at every level (whitelist + forbidNonWhitelisted), a nested value that
 * is not one of our classes is an error (forbidUnknownValues), and errors keep neither the target nor the
 * submitted value, so nothing a client sent can reach a log or a message.
 */
export const STRICT_VALIDATOR_OPTIONS: Readonly<ValidatorOptions> = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  validationError: { target: false, value: false },
});

/**
 * True when `plain` is exactly an instance of `dto`'s shape. Nothing is coerced (no implicit conversion,
 * and no `@Type(() => Number)`-style decorators exist in our DTOs), and the caller keeps using its own
 * plain value: the class instances are only a vehicle for class-validator.
 */
export function conformsTo(dto: ClassConstructor<object>, plain: unknown): boolean {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) return false;
  let instance: object;
  try {
    instance = plainToInstance(dto, plain, { enableImplicitConversion: false });
  } catch {
    // class-transformer dereferences each item of a discriminated array: `[null]` throws a TypeError.
    return false;
  }
  return !hasDroppedKey(plain, instance) && validateSync(instance, STRICT_VALIDATOR_OPTIONS).length === 0;
}

/**
 * class-transformer silently skips `__proto__`, `constructor` and any key naming an inherited method
 * (`toString`, `valueOf`, …), so the whitelist never sees them. Compare the keys of every DTO instance
 * with its source object; free-form values (`@FreeForm()`) are not ours to police.
 */
function hasDroppedKey(source: unknown, built: unknown): boolean {
  if (Array.isArray(source) && Array.isArray(built)) {
    return source.some((item, index) => hasDroppedKey(item, built[index]));
  }
  if (!isDtoInstance(built) || typeof source !== 'object' || source === null) return false;
  const record = source as Record<string, unknown>;
  const target = built as Record<string, unknown>;
  return Object.keys(record).some(
    (key) => !Object.hasOwn(target, key) || hasDroppedKey(record[key], target[key]),
  );
}

function isDtoInstance(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (value instanceof OpaqueJsonValue) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype !== Object.prototype && prototype !== null;
}
