/**
 * JSON with sorted keys, no spaces and non-ASCII kept, i.e. Python's
 * `json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)` — docs/behaviour/events.md#tools. Tool
 * arguments and results are compared byte for byte by clients of the original, and the required-input
 * dedupe key (docs/behaviour/events.md#unwrapping-frames) uses the same canonical form.
 */
export function compactJson(value: unknown): string {
  // JSON.stringify(undefined) is undefined; the original serialises a missing value as null.
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
