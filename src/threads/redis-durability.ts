/**
 * Whether a Redis keeps what the gateway announced (docs/behaviour/state.md#redis-durability): "persist before
 * announce" holds only if an acknowledged write survives a Redis restart (AOF on) and is never evicted under
 * memory pressure (`noeviction`; `volatile-*` would evict the lease and lock keys, which carry a TTL).
 */
export interface RedisDurabilitySettings {
  /** `CONFIG GET appendonly`; undefined when the server refuses CONFIG (managed services often do). */
  readonly appendonly?: string;
  readonly maxmemoryPolicy?: string;
}

export type RedisDurabilityVerdict =
  | { readonly kind: 'durable' }
  /** CONFIG is not allowed here: nothing could be checked; the operator must know the settings are right. */
  | { readonly kind: 'unverifiable' }
  | { readonly kind: 'volatile'; readonly problems: readonly string[] };

export function judgeRedisDurability(settings: RedisDurabilitySettings): RedisDurabilityVerdict {
  const { appendonly, maxmemoryPolicy } = settings;
  if (appendonly === undefined && maxmemoryPolicy === undefined) return { kind: 'unverifiable' };
  const problems: string[] = [];
  if (appendonly !== undefined && appendonly !== 'yes')
    problems.push(`appendonly is "${appendonly}", not "yes"`);
  if (maxmemoryPolicy !== undefined && maxmemoryPolicy !== 'noeviction')
    problems.push(`maxmemory-policy is "${maxmemoryPolicy}", not "noeviction"`);
  return problems.length === 0 ? { kind: 'durable' } : { kind: 'volatile', problems };
}
