import type Redis from 'ioredis';
import { RELEASE_IF_HELD_SCRIPT, RENEW_IF_HELD_SCRIPT, WRITE_THREAD_SCRIPT } from './redis-thread-scripts';

/** An ioredis client with the thread scripts defined (EVALSHA, falling back to EVAL after a SCRIPT FLUSH). */
export type ScriptedRedis = Redis & {
  aguiWriteThread(
    documentKey: string,
    leaseKey: string,
    expectedVersion: number,
    document: string,
    mode: 'plain' | 'claim' | 'fence',
    runIdOrToken: string,
    leaseTtlMs: number,
  ): Promise<[string, number, string]>;
  aguiRenewIfHeld(key: string, token: string, ttlMs: number): Promise<number>;
  aguiReleaseIfHeld(key: string, token: string): Promise<number>;
};

export function defineThreadScripts(client: Redis): ScriptedRedis {
  client.defineCommand('aguiWriteThread', { numberOfKeys: 2, lua: WRITE_THREAD_SCRIPT });
  client.defineCommand('aguiRenewIfHeld', { numberOfKeys: 1, lua: RENEW_IF_HELD_SCRIPT });
  client.defineCommand('aguiReleaseIfHeld', { numberOfKeys: 1, lua: RELEASE_IF_HELD_SCRIPT });
  return client as ScriptedRedis;
}
