import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHART_DIR } from './support/helm';
import { parseYaml } from './support/parse-yaml';

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** Every leaf of values.yaml as a dotted path with its default: maps are walked; lists, scalars and {} are leaves. */
function leafPaths(value: Value, prefix: string): { key: string; value: Value }[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([name, child]) =>
      leafPaths(child, prefix ? `${prefix}.${name}` : name),
    );
  }
  return [{ key: prefix, value }];
}

const values = parseYaml<Record<string, Value>>(fs.readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8'));
const readme = fs.readFileSync(path.join(CHART_DIR, 'README.md'), 'utf8');
/** README rows: | `key` | `default` | description | */
const rows = new Map(
  [...readme.matchAll(/^\| `([^`]+)` \| `([^`]*)` \|/gm)].map((match) => [match[1], match[2]] as const),
);
const leaves = leafPaths(values, '');

describe('helm/agui-a2a-gateway/README.md', () => {
  it('finds the value table', () => {
    expect(rows.size).toBeGreaterThan(50);
  });

  it.each(leaves)('lists `$key` with its default', ({ key, value }) => {
    expect(rows.get(key)).toBe(JSON.stringify(value));
  });

  it('lists no key that values.yaml does not have', () => {
    const known = new Set(leaves.map((leaf) => leaf.key));
    expect([...rows.keys()].filter((key) => !known.has(key))).toEqual([]);
  });

  it.each(Object.keys(values))('mentions the top-level key `%s`', (key) => {
    expect([...rows.keys()].some((row) => row === key || row.startsWith(`${key}.`))).toBe(true);
  });
});
