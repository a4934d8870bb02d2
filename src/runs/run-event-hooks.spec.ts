import type { BaseEvent } from '@ag-ui/core';
import type { Logger } from '@nestjs/common';
import type { Clock } from '../common/clock';
import type { RunEventHook, RunHookContext, RunOutcomeReport } from './run-event-hook';
import { RunEventHooks } from './run-event-hooks';

const NOW = 1_900_000_000_000;
const clock: Clock = { now: () => NOW, uuid: () => 'id' };
const context: RunHookContext = {
  threadId: 't',
  runId: 'r',
  executionId: 'e',
  rosInvocationId: 'i',
  face: 'iac-code',
  startedAtMs: NOW - 10,
};
const event = (type: string, extra: Record<string, unknown> = {}) =>
  ({ type, timestamp: NOW, ...extra }) as BaseEvent;

function recorder() {
  const reports: RunOutcomeReport[] = [];
  const hook: RunEventHook = { onRunEnd: (report) => void reports.push(report) };
  return { hook, reports };
}

describe('HookedRun outcome reports', () => {
  it.each([
    { name: 'RUN_FINISHED', last: event('RUN_FINISHED'), expected: { outcome: 'success' } },
    {
      name: 'RUN_FINISHED at an interrupt',
      last: event('RUN_FINISHED', { outcome: { type: 'interrupt' } }),
      expected: { outcome: 'interrupt' },
    },
    {
      name: 'RUN_ERROR',
      last: event('RUN_ERROR', { code: 'A2A_UNAVAILABLE' }),
      expected: { outcome: 'error', errorCode: 'A2A_UNAVAILABLE' },
    },
    { name: 'no terminal event', last: event('TEXT_MESSAGE_CONTENT'), expected: { outcome: 'disconnected' } },
  ])('$name', ({ last, expected }) => {
    const { hook, reports } = recorder();
    const run = new RunEventHooks([hook], clock).startRun(context);
    run.event(event('RUN_STARTED'));
    run.event(last);
    run.end();
    run.end();
    expect(reports).toEqual([{ ...expected, endedAtMs: NOW, eventCount: 2 }]);
  });
});

describe('HookedRun isolation', () => {
  it('keeps calling the other hooks after one throws, logs it once per run, and never rethrows', async () => {
    const errors: unknown[] = [];
    const logger = { error: (line: unknown) => void errors.push(line) } as unknown as Logger;
    const seen: string[] = [];
    const hooks = new RunEventHooks(
      [
        {
          onEvent: () => {
            throw new Error('boom');
          },
        },
        { onEvent: (e) => Promise.reject(new Error(`late ${e.type}`)) },
        { onEvent: (e) => void seen.push(e.type) },
      ],
      clock,
    );
    Object.assign(hooks, { logger });
    const run = hooks.startRun(context);
    expect(() =>
      ['RUN_STARTED', 'TEXT_MESSAGE_CONTENT', 'RUN_FINISHED'].forEach((t) => run.event(event(t))),
    ).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['RUN_STARTED', 'TEXT_MESSAGE_CONTENT', 'RUN_FINISHED']);
    expect(errors).toEqual([
      expect.objectContaining({ hook: 0, method: 'onEvent', error: expect.stringContaining('boom') }),
      expect.objectContaining({
        hook: 1,
        method: 'onEvent',
        error: expect.stringContaining('late RUN_STARTED'),
      }),
    ]);
  });
});
