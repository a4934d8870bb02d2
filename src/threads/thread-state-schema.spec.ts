import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STRING_BOUNDS } from '../common/string-bounds';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { ErrorCode } from '../common/error-code';
import { serializeThreadState, validateThreadState, type ThreadState } from './thread-state';
import { assertStorable, THREAD_STATE_SCHEMA } from './thread-state-schema';

type Schema = Record<string, unknown> | boolean;

/**
 * Every place in a JSON Schema where a string can be stored without a bound: a string type without
 * `maxLength`, a schema that accepts anything (`true`, `{}`), or an object whose other keys are not
 * described (absent or `true` `additionalProperties`). Paths name where each one is.
 */
function unboundedStringFields(schema: Schema, at = '#'): string[] {
  if (schema === true) return [at];
  if (schema === false) return [];
  if (Object.keys(schema).length === 0) return [at];
  const found: string[] = [];
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const isComposite = ['anyOf', 'oneOf', 'allOf', '$ref', 'const', 'enum'].some((key) => key in schema);
  if (!isComposite && types.length === 0) found.push(at);
  if (types.includes('string') && typeof schema.maxLength !== 'number') found.push(at);
  if (types.includes('object')) {
    if (schema.additionalProperties === undefined || schema.additionalProperties === true)
      found.push(`${at}/additionalProperties`);
    if (schema.propertyNames === undefined) found.push(`${at}/propertyNames`);
  }
  if (types.includes('array') && schema.items === undefined) found.push(`${at}/items`);
  const children: [string, Schema][] = [
    ...Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(
      ([key, child]) => [`${at}/properties/${key}`, child] as [string, Schema],
    ),
    ...Object.entries((schema.$defs ?? {}) as Record<string, Schema>).map(
      ([key, child]) => [`${at}/$defs/${key}`, child] as [string, Schema],
    ),
    ...((schema.anyOf ?? []) as Schema[]).map(
      (child, index) => [`${at}/anyOf/${index}`, child] as [string, Schema],
    ),
    ...(['additionalProperties', 'propertyNames', 'items'] as const)
      .filter((key) => typeof schema[key] === 'object')
      .map((key) => [`${at}/${key}`, schema[key] as Schema] as [string, Schema]),
  ];
  return found.concat(children.flatMap(([path, child]) => unboundedStringFields(child, path)));
}

function withUserId(userId: string): ThreadState {
  return { ...threadStateFixture({ isParked: true }), userId };
}

describe('the stored thread document schema (docs/behaviour/bounds.md)', () => {
  it('has no string field without a bound, at any depth', () => {
    expect(unboundedStringFields(THREAD_STATE_SCHEMA)).toEqual([]);
  });

  it.each<[string, Schema]>([
    [
      'a string without maxLength',
      {
        type: 'object',
        propertyNames: { type: 'string', maxLength: 1 },
        additionalProperties: false,
        properties: { a: { type: 'string' } },
      },
    ],
    [
      'an object open to any other key',
      { type: 'object', propertyNames: { type: 'string', maxLength: 1 }, properties: {} },
    ],
    [
      'a field that accepts anything',
      {
        type: 'object',
        propertyNames: { type: 'string', maxLength: 1 },
        additionalProperties: false,
        properties: { a: {} },
      },
    ],
    ['an array of anything', { type: 'array' }],
  ])('the walk finds %s', (_name, schema) => {
    expect(unboundedStringFields(schema)).not.toEqual([]);
  });

  it('covers every field the gateway writes: the document of a parked thread passes as written', () => {
    const state = threadStateFixture({ isParked: true, expiresAt: '2026-01-01T00:00:00.000Z' });
    expect(() => assertStorable(JSON.parse(serializeThreadState(state)))).not.toThrow();
  });

  it('accepts the thread fixtures of the original adapter, unknown keys included', () => {
    const dir = join(__dirname, '../../test/fixtures/threads');
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
      const doc = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { threadId?: unknown };
      if (typeof doc.threadId !== 'string') continue;
      let state: ThreadState;
      try {
        state = validateThreadState(doc, doc.threadId);
      } catch {
        continue; // a fixture of a damaged file: refused on load, never written
      }
      expect(() => serializeThreadState(state)).not.toThrow();
    }
  });

  it('writes a userId at its bound and refuses one character more', () => {
    expect(() => serializeThreadState(withUserId('u'.repeat(STRING_BOUNDS.text)))).not.toThrow();
    expect(() => serializeThreadState(withUserId('u'.repeat(STRING_BOUNDS.text + 1)))).toThrow(
      expect.objectContaining({ code: ErrorCode.STATE_UNAVAILABLE }),
    );
  });

  it('refuses kernel-provided text over its bound, however deep in a pending input', () => {
    const state = threadStateFixture({ isParked: true });
    const deep = { options: [{ label: { text: 'x'.repeat(STRING_BOUNDS.storedText + 1) } }] };
    const parked: ThreadState = {
      ...state,
      execution: {
        ...state.execution,
        pending: { 'permission-1': { value: { inputId: 'permission-1', ...deep }, sideband: false } },
      },
    };
    expect(() => serializeThreadState(parked)).toThrow(
      expect.objectContaining({ code: ErrorCode.STATE_UNAVAILABLE }),
    );
    expect(() =>
      serializeThreadState({
        ...state,
        execution: { ...state.execution, taskId: 't'.repeat(STRING_BOUNDS.id + 1) },
      }),
    ).toThrow(expect.objectContaining({ code: ErrorCode.STATE_UNAVAILABLE }));
  });

  it('refuses an over-long key an unknown field of a loaded file might carry', () => {
    const state = { ...threadStateFixture(), ['k'.repeat(STRING_BOUNDS.id + 1)]: 1 } as ThreadState;
    expect(() => serializeThreadState(state)).toThrow(
      expect.objectContaining({ code: ErrorCode.STATE_UNAVAILABLE }),
    );
  });
});
