import 'reflect-metadata';
import { Exclude, Type } from 'class-transformer';

/**
 * Stands in for a free-form JSON value (state, metadata, payload, tool parameters, activity content) while
 * the DTOs are validated. class-transformer would otherwise walk into the value and "guess" a class from
 * any key named `constructor` — `{"constructor": 1}` makes it call `new 1()` — and drop inherited-method
 * keys. With every key excluded it copies nothing: an object becomes an empty instance (still an object for
 * `@IsObject()`), an array stays an array, a primitive or null stays itself. The caller keeps the original.
 */
@Exclude()
export class OpaqueJsonValue {}

/** Marks a property whose value is any JSON, never inspected beyond its kind. */
export function FreeForm(): PropertyDecorator {
  return Type(() => OpaqueJsonValue);
}
