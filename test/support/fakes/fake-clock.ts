import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../src/common/clock';

/** A clock tests move by hand (interrupt expiry); ids stay random. */
export class FakeClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 30, 12, 0, 0)) {}

  now(): number {
    return this.current;
  }

  uuid(): string {
    return randomUUID();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
