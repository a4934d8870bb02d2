import { threadStateKey } from './thread-file-name';

export interface RedisThreadKeys {
  /** Hash: `document` (the docs/behaviour/state.md#the-document JSON), `version` (bumped by every write), `fence` (last lease token number). */
  readonly document: string;
  /** String `<fence>:<runId>` with a TTL: the run lease (the busy slot of docs/behaviour/state.md#admission). */
  readonly lease: string;
  /** String with a TTL: the per-thread mutex that serialises read-decide-write across replicas. */
  readonly lock: string;
}

/**
 * The keys of one thread. The state key (docs/behaviour/state.md#file-stems) is injective and free of `{}`, so it can be the
 * hash tag: the three keys land in one Redis Cluster slot and one Lua script may touch them together.
 */
export function redisThreadKeys(prefix: string, threadId: string): RedisThreadKeys {
  const base = `${prefix}thread:{${threadStateKey(threadId)}}`;
  return { document: base, lease: `${base}:lease`, lock: `${base}:lock` };
}

/** The pub/sub channel of the cancel extension (docs/behaviour/cancel.md#cancel-route from any replica). */
export function redisCancelChannel(prefix: string): string {
  return `${prefix}cancel`;
}
