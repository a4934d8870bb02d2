import type { TokenUsage } from '@ag-ui/core';
import { isWireObject, nonEmptyString } from '../wire/wire-value';

// The counters the kernel reports and the original aggregates (docs/behaviour/events.md#usage).
const COUNTERS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens'] as const;
type Counter = (typeof COUNTERS)[number];

/**
 * One `iac_code.usage` object (or Pipeline `usage` envelope data) → a usage record. The kernel's numbers
 * pass through protobuf Struct, so `6497.0` is accepted as 6497; booleans, fractions, negatives and
 * non-numbers count as absent.
 * Negatives are dropped because AG-UI TokenUsage counts must be ≥ 0.
 */
export function parseUsageRecord(value: unknown): TokenUsage | undefined {
  if (!isWireObject(value)) return undefined;
  const record: TokenUsage = {};
  const provider = nonEmptyString(value.provider);
  const model = nonEmptyString(value.model);
  if (provider !== undefined) record.provider = provider;
  if (model !== undefined) record.model = model;
  for (const counter of COUNTERS) {
    const count = tokenCount(value[counter]);
    if (count !== undefined) record[counter] = count;
  }
  return record;
}

/**
 * Sums records per `(provider, model)` in first-seen order, a missing counter counting as 0; every group
 * reports all four counters. No records → undefined, so RUN_FINISHED/RUN_ERROR omit `usage`.
 */
export function aggregateUsage(records: readonly TokenUsage[]): TokenUsage[] | undefined {
  if (records.length === 0) return undefined;
  const groups = new Map<string, TokenUsage & Record<Counter, number>>();
  for (const record of records) {
    const key = JSON.stringify([record.provider ?? null, record.model ?? null]);
    let group = groups.get(key);
    if (!group) {
      group = {
        ...(record.provider !== undefined && { provider: record.provider }),
        ...(record.model !== undefined && { model: record.model }),
        inputTokens: 0,
        outputTokens: 0,
        totalTokens: 0,
        cachedInputTokens: 0,
      };
      groups.set(key, group);
    }
    for (const counter of COUNTERS) group[counter] += record[counter] ?? 0;
  }
  return [...groups.values()];
}

function tokenCount(value: unknown): number | undefined {
  // typeof excludes booleans, which Python's int check would have let through as 0/1.
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
