import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import type { A2aFrame } from '../wire/a2a-wire';
import { A2aEventMapper } from './a2a-event-mapper';
import { runFinished, runStarted } from './run-events';
import { textDigest } from './text-snapshots';

// Cumulative-replay stripping across resumes: docs/behaviour/events.md#text-and-reasoning.
const NOW = 1_700_000_000_000;
const run = (runId: string) => ({ threadId: 'thread-1', runId });

const statusText = (
  text: string,
  iacCode?: Record<string, unknown>,
  messageId = 'assistant-1',
): A2aFrame => ({
  statusUpdate: {
    taskId: 'task-1',
    status: { state: 'TASK_STATE_WORKING', message: { messageId, role: 'ROLE_AGENT', parts: [{ text }] } },
    ...(iacCode && { metadata: { iac_code: iacCode } }),
  },
});
const deltas = (events: BaseEvent[]) =>
  events
    .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => event.delta as string);

/** Maps the frames as one run (RUN_STARTED … closeAll … RUN_FINISHED), checks conformance, returns the mapper. */
async function mapRun(mapper: A2aEventMapper, runId: string, frames: A2aFrame[]): Promise<BaseEvent[]> {
  const events = frames.flatMap((frame) => mapper.map(frame, NOW));
  const closed = mapper.closeAll(NOW);
  const started = runStarted(run(runId), undefined, NOW);
  await expectConformantEvents(
    events.length + closed.length === 0
      ? [started, runFinished(run(runId), undefined, NOW)]
      : [started, ...events, ...closed, runFinished(run(runId), undefined, NOW)],
  );
  return events;
}

describe('cumulative text replay across resumes', () => {
  it('cumulative text across three runs emits only the new suffixes "second", "third"', async () => {
    const first = new A2aEventMapper(run('run-1'), () => 'id');
    expect(deltas(await mapRun(first, 'run-1', [statusText('first')]))).toEqual(['first']);
    first.finaliseTextSnapshots();
    expect(first.textSnapshotDigests).toEqual([textDigest('first')]);

    const second = new A2aEventMapper(run('run-2'), () => 'id', {
      textSnapshotDigests: first.textSnapshotDigests,
    });
    const secondEvents = await mapRun(second, 'run-2', [statusText('firstsecond')]);
    expect(secondEvents).toEqual([
      { type: EventType.TEXT_MESSAGE_START, messageId: 'assistant-1', role: 'assistant', timestamp: NOW },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'assistant-1', delta: 'second', timestamp: NOW },
    ]);
    // closeAll closed the message, which finalised the whole replayed text.
    expect(second.textSnapshotDigests).toEqual([textDigest('first'), textDigest('firstsecond')].sort());

    const third = new A2aEventMapper(run('run-3'), () => 'id', {
      textSnapshotDigests: second.textSnapshotDigests,
    });
    expect(deltas(await mapRun(third, 'run-3', [statusText('firstsecondthird')]))).toEqual(['third']);
  });

  it('an exact replay with assistantFinal emits nothing, a later suffix goes out, unrelated text whole', async () => {
    const prior = new A2aEventMapper(run('run-1'), () => 'id');
    prior.map(statusText('before interrupt'), NOW);
    prior.finaliseTextSnapshots();
    const priorDigests = prior.textSnapshotDigests;
    expect(priorDigests).toEqual([textDigest('before interrupt')]);

    const replay = new A2aEventMapper(run('run-2'), () => 'id', { textSnapshotDigests: priorDigests });
    const exact = replay.map(statusText('before interrupt', { assistantFinal: { complete: true } }), NOW);
    expect(exact).toEqual([]);
    expect(replay.hasEmittedText).toBe(false);
    const suffix = replay.map(statusText(' after resume'), NOW);
    expect(deltas(suffix)).toEqual([' after resume']);
    replay.finaliseTextSnapshots();
    expect(replay.textSnapshotDigests).toEqual(
      [textDigest('before interrupt'), textDigest('before interrupt after resume')].sort(),
    );
    await expectConformantEvents([
      runStarted(run('run-2'), undefined, NOW),
      ...exact,
      ...suffix,
      ...replay.closeAll(NOW),
      runFinished(run('run-2'), undefined, NOW),
    ]);

    const unrelated = new A2aEventMapper(run('run-2'), () => 'id', { textSnapshotDigests: priorDigests });
    expect(deltas(await mapRun(unrelated, 'run-2', [statusText('different response')]))).toEqual([
      'different response',
    ]);
  });

  it('"before interruptafter resume" replayed after a restart → only "after resume"', async () => {
    const resumed = new A2aEventMapper(run('run-2'), () => 'id', {
      textSnapshotDigests: [textDigest('before interrupt')],
    });
    const events = await mapRun(resumed, 'run-2', [statusText('before interruptafter resume')]);
    expect(deltas(events)).toEqual(['after resume']);
  });

  it('strips only on the first sighting of a message id in the run', () => {
    const mapper = new A2aEventMapper(run('run-2'), () => 'id', { textSnapshotDigests: [textDigest('ab')] });
    expect(deltas(mapper.map(statusText('abc'), NOW))).toEqual(['c']);
    expect(deltas(mapper.map(statusText('ab'), NOW))).toEqual(['ab']);
    expect(deltas(mapper.map(statusText('ab', undefined, 'assistant-2'), NOW))).toEqual([]);
  });

  it('prefixes end on code points: multi-byte and astral text keep their suffix intact', () => {
    const mapper = new A2aEventMapper(run('run-2'), () => 'id', {
      textSnapshotDigests: [textDigest('héllo 🌍')],
    });
    expect(deltas(mapper.map(statusText('héllo 🌍 wörld'), NOW))).toEqual([' wörld']);
  });

  it('a tool start finalises the current message: its text so far becomes a digest', () => {
    const mapper = new A2aEventMapper(run('run-1'), () => 'id');
    mapper.map(statusText('Let me '), NOW);
    mapper.map(statusText('check'), NOW);
    expect(mapper.textSnapshotDigests).toEqual([]);
    mapper.map(
      { statusUpdate: { metadata: { iac_code: { tool: { status: 'started', toolUseId: 't1' } } } } },
      NOW,
    );
    expect(mapper.textSnapshotDigests).toEqual([textDigest('Let me check')]);
  });

  it('a message closed by a new one is finalised; Pipeline text is snapshotted too', () => {
    const mapper = new A2aEventMapper(run('run-1'), () => 'id');
    mapper.map(statusText('one', undefined, 'm1'), NOW);
    mapper.map(statusText('two', undefined, 'm2'), NOW);
    expect(mapper.textSnapshotDigests).toEqual([textDigest('one')]);
    mapper.map(
      {
        statusUpdate: {
          metadata: {
            iac_code: { pipeline: { eventId: 'p', eventType: 'text_delta', data: { text: 'pipe' } } },
          },
        },
      },
      NOW,
    );
    mapper.closeAll(NOW);
    expect(mapper.textSnapshotDigests).toEqual(
      [textDigest('one'), textDigest('pipe'), textDigest('two')].sort(),
    );
    expect(mapper.textSnapshotDigests.every((digest) => /^[0-9a-f]{64}$/.test(digest))).toBe(true);
  });
});
