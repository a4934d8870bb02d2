import { Injectable } from '@nestjs/common';
import Ajv, { type ValidateFunction } from 'ajv';
import { compactJson } from '../wire/compact-json';

/** Distinct schemas kept compiled; a question's schema depends on its options, so the set is open-ended. */
const MAX_COMPILED_SCHEMAS = 256;

/**
 * Checks resume payloads against interrupt response schemas with ajv (docs/behaviour/interrupts.md#answer-validation; the original used
 * Python `jsonschema`). The schemas of `responseSchemaFor` only use `type`, `properties`, `required`,
 * `additionalProperties`, `enum`, `const`, `minLength` and `oneOf`, which draft-07 (ajv's default) and
 * 2020-12 (`jsonschema`'s default) read identically; `strict: false` lets annotations such as a branch's
 * `title` through. Each schema is compiled once, keyed by its canonical JSON, in a bounded cache.
 */
@Injectable()
export class ResponseValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  validate(schema: Record<string, unknown>, payload: unknown): boolean {
    return this.compiledFor(schema)(payload);
  }

  private compiledFor(schema: Record<string, unknown>): ValidateFunction {
    const key = compactJson(schema);
    const cached = this.compiled.get(key);
    if (cached) {
      // Re-insert so the map's insertion order is least-recently-used first.
      this.compiled.delete(key);
      this.compiled.set(key, cached);
      return cached;
    }
    const validate = this.ajv.compile(schema);
    this.compiled.set(key, validate);
    if (this.compiled.size > MAX_COMPILED_SCHEMAS) {
      const [oldestKey, oldest] = this.compiled.entries().next().value as [string, ValidateFunction];
      this.compiled.delete(oldestKey);
      // ajv keeps its own reference to every compiled schema object; drop it too, or memory grows.
      this.ajv.removeSchema(oldest.schema as object);
    }
    return validate;
  }

  /** How many schemas are compiled now (for tests of the cache). */
  get compiledCount(): number {
    return this.compiled.size;
  }
}
