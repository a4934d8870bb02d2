import type { RawData } from 'ws';
import { LOGGED_ID_LENGTH } from '../logging/truncate-log-ids';

/**
 * How a refusal names the input it refused: its `runId` as JSON (cut like an id in a log line, so a
 * 1,024-character id does not fill the message), or `null` for an input without one.
 */
export function runIdLabelOf(value: unknown): string {
  const runId = (value as { runId?: unknown }).runId;
  if (typeof runId !== 'string') return 'null';
  return JSON.stringify(runId.length > LOGGED_ID_LENGTH ? `${runId.slice(0, LOGGED_ID_LENGTH)}…` : runId);
}

export function byteLengthOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, piece) => total + piece.length, 0);
  return data.byteLength;
}

export function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
