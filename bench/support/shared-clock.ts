import { performance } from 'node:perf_hooks';

/**
 * Wall-clock microseconds that every bench process on this machine agrees on: `timeOrigin` is the
 * process's wall-clock start and `now()` the monotonic time since, so a timestamp written by the upstream
 * can be compared with the client's read time in another process (same host, same clock).
 */
export function sharedNowUs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}
