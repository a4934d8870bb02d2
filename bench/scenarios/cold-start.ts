import type { GatewayProcess } from '../support/bench-processes';
import { median, round } from '../support/sample-stats';

export interface ColdStartResult {
  readonly starts: number;
  readonly medianMs: number;
  readonly maxMs: number;
  readonly samplesMs: number[];
}

/**
 * Cold start: spawning `node dist/main.js` → the first `/ping` answered 200 (the original:
 * `iac-code agui` → `/health`), polled every 2 ms.
 * Sequential starts, each stopped before the next; the page cache is warm after the first.
 */
export async function measureColdStart(
  starts: number,
  start: () => Promise<GatewayProcess>,
): Promise<ColdStartResult> {
  const samplesMs: number[] = [];
  for (let index = 0; index < starts; index++) {
    const gateway = await start();
    samplesMs.push(round(gateway.coldStartMs, 1));
    await gateway.stop();
  }
  return {
    starts,
    medianMs: round(median(samplesMs), 1),
    maxMs: round(Math.max(...samplesMs), 1),
    samplesMs,
  };
}
