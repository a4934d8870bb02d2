/** Time and ids come from here so tests can pin them (CONTRIBUTING.md: nothing reads Date.now() directly). */
import { randomUUID } from 'node:crypto';

export const CLOCK = Symbol('CLOCK');

export interface Clock {
  /** Unix epoch milliseconds, an integer (AG-UI rejects float timestamps). */
  now(): number;
  /** A random UUID v4. */
  uuid(): string;
}

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
  uuid(): string {
    return randomUUID();
  }
}
