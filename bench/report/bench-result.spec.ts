import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkTargets, headlineOf, type BenchResult } from './bench-result';

const details = () =>
  (
    JSON.parse(
      readFileSync(join(__dirname, '../results/2026-12-01T13-42-44.016Z.json'), 'utf8'),
    ) as BenchResult
  ).details;

describe('bench headline', () => {
  it("puts the original's first event, first text, idle RSS and KB per open run beside ours", () => {
    const d = details();
    expect(headlineOf(d)).toMatchObject({
      originalFirstEventP50Ms: d.firstEvent.firstEvent.original!.p50Ms,
      originalFirstTextP50Ms: d.firstEvent.firstText.original!.p50Ms,
      originalIdleRssMb: d.originalOpenRuns!.idleRssMb,
      originalOpenRunKb: d.originalOpenRuns!.perRunKb,
    });
  });

  it('leaves them out when the original was not measured (no python3)', () => {
    const { originalOpenRuns: _, ...d } = details();
    const firstEvent = {
      ...d.firstEvent,
      firstEvent: { ...d.firstEvent.firstEvent, original: undefined },
      firstText: { ...d.firstEvent.firstText, original: undefined },
    };
    const headline = headlineOf({ ...d, firstEvent });
    for (const key of [
      'originalFirstEventP50Ms',
      'originalFirstTextP50Ms',
      'originalIdleRssMb',
      'originalOpenRunKb',
    ]) {
      expect(headline).not.toHaveProperty(key);
    }
  });

  it('checks CPU per short run against a third of the original, first text strictly below it', () => {
    const d = details();
    const headline = headlineOf(d);
    const targets = checkTargets(
      {
        ...headline,
        cpuMsPerShortRun: headline.originalCpuMsPerShortRun! / 3,
        firstTextP50Ms: headline.originalFirstTextP50Ms!,
      },
      d,
    );
    expect(targets.cpuMsPerShortRun.isMet).toBe(true);
    expect(targets.firstTextP50Ms.isMet).toBe(false);
  });
});
