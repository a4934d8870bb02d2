import { randomBytes } from 'node:crypto';

/**
 * A run's event cursor (docs/behaviour/reattach.md#event-ids): `<run token>.<sequence>`, opaque to clients.
 * The token is random per run, so a cursor of another run (or of an earlier run of the same execution)
 * never matches a log it does not belong to; the sequence starts at 1 and grows by one per event.
 */
export interface EventCursor {
  readonly runToken: string;
  readonly sequence: number;
}

const CURSOR = /^([0-9a-f]{16})\.([1-9][0-9]{0,14})$/;

/** A fresh random run token (64 bits, hex). */
export function newRunToken(): string {
  return randomBytes(8).toString('hex');
}

export function formatCursor(runToken: string, sequence: number): string {
  return `${runToken}.${sequence}`;
}

/** The cursor, or undefined when the text is not one this service wrote. */
export function parseCursor(text: string): EventCursor | undefined {
  const match = CURSOR.exec(text);
  return match ? { runToken: match[1], sequence: Number(match[2]) } : undefined;
}
