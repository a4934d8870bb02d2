import type { BaseEvent } from '@ag-ui/core';
import * as fc from 'fast-check';
import { FLOOD_DELTA_COUNT } from '../../src/demo-kernel/faults/failure-scripts';
import { RunLogRegistry } from '../../src/run-log/run-log-registry';
import { expectConformantEvents } from '../support/agui-conformance';
import { interruptsOf } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { eventually, openEvents, openRun, parseSse, postRun, type OpenRun } from '../support/sse-client';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';
import { WsRunClient } from '../support/ws-client';

type SessionValue = { executionId: string; rosInvocationId: string };

const sessionOf = (events: readonly BaseEvent[]): SessionValue | undefined =>
  (
    events.find((e) => (e as { name?: string }).name === 'iac-code.session.v1') as unknown as
      { value: SessionValue } | undefined
  )?.value;
const isSession = (event: BaseEvent) => (event as { name?: string }).name === 'iac-code.session.v1';
const isTerminal = (event: BaseEvent) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';

const byExecution = (gateway: RunningGateway, executionId: string, query: string) =>
  `${gateway.url}extensions/iac-code/v1/executions/${encodeURIComponent(executionId)}/events?${query}`;
const byThread = (gateway: RunningGateway, threadId: string, query: string) =>
  `${gateway.url}extensions/iac-code/v1/threads/${encodeURIComponent(threadId)}/events?${query}`;

/** Runs that survive their connection (docs/behaviour/reattach.md), over the scripted kernel. */
describe('reattaching to a run (IAC_CODE_AGUI_REATTACH_SECONDS)', () => {
  const gateways = useGateway({ upstream: true, startBeforeAll: false });
  const cancelsOf = async (taskIdPrefix = '') =>
    (await gateways.upstream.requests()).filter(
      (entry) =>
        entry.rpcMethod === 'CancelTask' &&
        String((entry.body as { params?: { id?: string } }).params?.id ?? '').startsWith(taskIdPrefix),
    );

  describe('with the window off (the default)', () => {
    it("writes the original's framing exactly, no id line, and a disconnect still cancels at once: nothing is retained", async () => {
      const gateway = await gateways.start();
      const full = await postRun(gateway.url, runInput({ threadId: 'ids-default', runId: 'run-ids' }));
      // The original's rules (docs/behaviour/sse.md#framing): the whole body is `data: <json>\n\n` records
      // and `: heartbeat\n\n` comments, nothing else; a strict client splitting on the blank line reads all.
      const records = full.text.split('\n\n');
      expect(records.pop()).toBe('');
      for (const record of records) expect(record).toMatch(/^(data: [^\n]+|: heartbeat)$/);
      expect(
        records.filter((record) => record.startsWith('data: ')).map((record) => JSON.parse(record.slice(6))),
      ).toEqual(full.events);
      expect(full.ids.every((id) => id === undefined)).toBe(true);
      expect(full.events.at(-1)?.type).toBe('RUN_FINISHED');
      const session = sessionOf(full.events) as SessionValue;
      const refused = await fetch(byExecution(gateway, session.executionId, 'rosInvocationId=invocation-1'));
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({
        error: { code: 'EXECUTION_NOT_FOUND', message: 'The execution was not found.' },
      });
    });
  });

  describe('with a window', () => {
    let gateway: RunningGateway;
    beforeEach(async () => {
      gateway = await gateways.start({ IAC_CODE_AGUI_REATTACH_SECONDS: '30' });
    });

    it('gives every event an id, the run token and the sequence from 1', async () => {
      const full = await postRun(gateway.url, runInput({ threadId: 'ids-window', runId: 'run-ids' }));
      expect(full.ids).toHaveLength(full.events.length);
      const [token] = String(full.ids[0]).split('.');
      expect(full.ids).toEqual(full.events.map((_, index) => `${token}.${index + 1}`));
    });

    it('the Last-Event-ID header wins over ?after=, which counts only without it (docs/behaviour/reattach.md#routes)', async () => {
      const threadId = 'cursor-precedence';
      const full = await postRun(gateway.url, runInput({ threadId, runId: 'run-cursor' }));
      expect(full.ids.length).toBeGreaterThan(4);
      const [headerCursor, queryCursor] = [full.ids[1], full.ids[3]] as string[];
      const withQuery = (after: string) =>
        byThread(gateway, threadId, `rosInvocationId=invocation-1&after=${encodeURIComponent(after)}`);
      const header = { headers: { 'last-event-id': headerCursor } };
      expect((await openEvents(withQuery(queryCursor), header).finished).ids).toEqual(full.ids.slice(2));
      expect((await openEvents(withQuery(queryCursor)).finished).ids).toEqual(full.ids.slice(4));
      // Not read at all when the header is there: a ?after= that is refused alone changes nothing.
      expect((await fetch(withQuery('not-a-cursor'))).status).toBe(400);
      expect((await openEvents(withQuery('not-a-cursor'), header).finished).ids).toEqual(full.ids.slice(2));
    });

    it('a client cut after any event reattaches with its last id: nothing lost, nothing twice (property, 200 cases)', async () => {
      const reference = await postRun(gateway.url, runInput({ threadId: 'cut-reference', runId: 'run-0' }));
      let runNumber = 0;
      await fc.assert(
        // Cut after any event but the last (a cut after the terminal event leaves nothing to reattach for).
        fc.asyncProperty(fc.integer({ min: 1, max: reference.events.length - 1 }), async (cutAfter) => {
          const threadId = `cut-${++runNumber}`;
          const owner = openRun(gateway.url, runInput({ threadId, runId: `run-${runNumber}` }), {
            disconnectAfterEvents: cutAfter,
          });
          const before = await owner.finished;
          const lastId = before.ids.at(-1) as string;
          const ended = before.events.some(isTerminal);
          const rest = ended
            ? { events: [] as BaseEvent[], ids: [] as (string | undefined)[] }
            : await openEvents(byThread(gateway, threadId, 'rosInvocationId=invocation-1'), {
                headers: { 'last-event-id': lastId },
              }).finished;
          const whole = await openEvents(byThread(gateway, threadId, 'rosInvocationId=invocation-1'))
            .finished;
          const joined = [...before.events, ...rest.events];
          expect(joined).toEqual(whole.events);
          expect([...before.ids, ...rest.ids]).toEqual(whole.ids);
          await expectConformantEvents(joined);
        }),
        { numRuns: 200 },
      );
      expect(await cancelsOf()).toEqual([]);
    }, 300_000);

    it('nobody comes back: exactly one CancelTask once the window passed, the thread busy until then', async () => {
      const short = await gateways.start({ IAC_CODE_AGUI_REATTACH_SECONDS: '1' });
      const owner = openRun(short.url, runInput({ threadId: 'gone', runId: 'run-gone', text: 'silent' }));
      const session = (await owner.waitForEvent(isSession)) as unknown as { value: { taskId: string } };
      const left = Date.now();
      owner.abort();
      const busy = await postRun(short.url, runInput({ threadId: 'gone', runId: 'run-gone-2' }));
      expect(busy.status).toBe(409);
      const ping = (await (await fetch(`${short.url}ping`)).json()) as { status: string };
      expect(ping.status).toBe('HealthyBusy');
      const cancels = await eventually(
        () => cancelsOf(session.value.taskId),
        (found) => found.length > 0,
        20_000,
      );
      expect(Date.now() - left).toBeGreaterThanOrEqual(1000);
      expect(cancels).toHaveLength(1);
      expect(short.logs.join('\n')).toContain('no client reattached within the window');
      await eventually(
        () => postRun(short.url, runInput({ threadId: 'gone', runId: 'run-gone-3' })),
        (next) => next.status === 200,
      );
      expect(await cancelsOf(session.value.taskId)).toHaveLength(1);
    });

    it('an interrupt that arrives while detached is persisted, and the reattaching client gets RUN_FINISHED(interrupt)', async () => {
      const owner = openRun(
        gateway.url,
        runInput({ threadId: 'detached-interrupt', runId: 'run-di', text: 'permission' }),
        {
          disconnectAfterEvents: 1,
        },
      );
      const before = await owner.finished;
      // Cut before the interrupt reached the client: the kernel paces its frames after RUN_STARTED.
      expect(before.events.some(isTerminal)).toBe(false);
      const rest = await openEvents(byThread(gateway, 'detached-interrupt', 'rosInvocationId=invocation-1'), {
        headers: { 'last-event-id': before.ids.at(-1) as string },
      }).finished;
      const events = [...before.events, ...rest.events];
      await expectConformantEvents(events);
      const interrupts = interruptsOf(events) as { id: string }[];
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
      // Persisted as always: the thread refuses a new turn until the interrupt is answered.
      const next = await postRun(
        gateway.url,
        runInput({ threadId: 'detached-interrupt', runId: 'run-di-2' }),
      );
      expect([next.status, (JSON.parse(next.text) as { error: { code: string } }).error.code]).toEqual([
        409,
        'RESUME_REQUIRED',
      ]);
      expect(interrupts.length).toBeGreaterThan(0);
    });

    it('a reattach at the head of a quiet run is answered at once: 200 and the headers, before any frame or heartbeat', async () => {
      // No heartbeat within the test's time: if the headers waited for the next item, the fetch would not settle.
      // A 1 s window: once both readers left, the run is cancelled and the gateway closes.
      const quiet = await gateways.start({
        IAC_CODE_AGUI_REATTACH_SECONDS: '1',
        IAC_CODE_AGUI_HEARTBEAT_SECONDS: '3600',
      });
      const threadId = 'quiet-head';
      const owner = await fetch(quiet.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(runInput({ threadId, runId: 'run-quiet', text: 'silent' })),
      });
      const reader = (owner.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      // Until the session event (the last frame of a `silent` run until its task is cancelled).
      while (!text.includes('iac-code.session.v1'))
        text += new TextDecoder().decode((await reader.read()).value);
      const headId = [...text.matchAll(/^id: (.+)$/gm)].at(-1)?.[1] as string;
      const reattach = new AbortController();
      const head = await fetch(byThread(quiet, threadId, 'rosInvocationId=invocation-1'), {
        headers: { 'last-event-id': headId },
        signal: reattach.signal,
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/event-stream');
      reattach.abort();
      await reader.cancel();
    });

    it('two observers and the owner see the same stream; the owner leaving alone cancels nothing', async () => {
      const threadId = 'watched';
      const owner = openRun(gateway.url, runInput({ threadId, runId: 'run-watched', text: 'slow' }));
      const session = (await owner.waitForEvent(isSession)) as unknown as { value: { taskId: string } };
      const observers: OpenRun[] = [1, 2].map(() =>
        openEvents(byThread(gateway, threadId, 'rosInvocationId=invocation-1')),
      );
      await Promise.all(observers.map((o) => o.waitForEvent((e) => e.type === 'TEXT_MESSAGE_CONTENT')));
      const ownerSeen = await owner.waitForEvent((e) => e.type === 'TEXT_MESSAGE_CONTENT');
      expect(ownerSeen.type).toBe('TEXT_MESSAGE_CONTENT');
      owner.abort();
      const cut = await owner.finished;
      const [first, second] = await Promise.all(observers.map((o) => o.finished));
      expect(first.events).toEqual(second.events);
      expect(first.events.slice(0, cut.events.length)).toEqual(cut.events);
      expect(first.events.at(-1)?.type).toBe('RUN_FINISHED');
      await expectConformantEvents(first.events);
      expect(await cancelsOf(session.value.taskId)).toEqual([]);
    });

    it('a /ws socket that drops detaches its run the same way: the run goes on, followed over the thread route', async () => {
      const client = await WsRunClient.open(gateway.url);
      client.send(runInput({ threadId: 'ws-dropped', runId: 'run-ws-dropped', text: 'slow' }));
      await client.waitForEvents(3);
      const seen = [...client.events];
      client.socket.terminate();
      await client.closed;
      const rest = await openEvents(byThread(gateway, 'ws-dropped', 'rosInvocationId=invocation-1')).finished;
      expect(rest.events.slice(0, seen.length)).toEqual(seen);
      expect(rest.events.at(-1)?.type).toBe('RUN_FINISHED');
      await expectConformantEvents(rest.events);
      const { taskId } = sessionOf(rest.events) as unknown as { taskId: string };
      expect(await cancelsOf(taskId)).toEqual([]);
    });

    it('a /ws client with eventIds cut after any event reattaches with its last id (property, 200 cases)', async () => {
      const reference = await postRun(
        gateway.url,
        runInput({ threadId: 'ws-cut-reference', runId: 'run-0' }),
      );
      let runNumber = 0;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: reference.events.length - 1 }), async (cutAfter) => {
          const threadId = `ws-cut-${++runNumber}`;
          const client = await WsRunClient.open(gateway.url, { eventIds: true });
          client.send(runInput({ threadId, runId: `run-${runNumber}` }));
          await client.waitForEvents(cutAfter);
          client.socket.terminate();
          await client.closed;
          const before = [...client.events];
          const beforeIds = [...client.ids];
          const rest = before.some(isTerminal)
            ? { events: [] as BaseEvent[], ids: [] as (string | undefined)[] }
            : await openEvents(byThread(gateway, threadId, 'rosInvocationId=invocation-1'), {
                headers: { 'last-event-id': beforeIds.at(-1) as string },
              }).finished;
          const whole = await openEvents(byThread(gateway, threadId, 'rosInvocationId=invocation-1'))
            .finished;
          expect([...before, ...rest.events]).toEqual(whole.events);
          expect([...beforeIds, ...rest.ids]).toEqual(whole.ids);
          await expectConformantEvents(whole.events);
        }),
        { numRuns: 200 },
      );
    }, 300_000);

    it('refuses, before any byte of a stream, what does not prove the run or names no event of it', async () => {
      const threadId = 'refusals';
      const done = await postRun(gateway.url, runInput({ threadId, runId: 'run-refusals' }));
      const { executionId } = sessionOf(done.events) as SessionValue;
      const statusOf = async (url: string, headers: Record<string, string> = {}) => {
        const response = await fetch(url, { headers });
        const body = (await response.json()) as { error: { code: string } };
        return [response.status, body.error.code];
      };
      const ros = 'rosInvocationId=invocation-1';
      expect(await statusOf(byExecution(gateway, executionId, 'rosInvocationId=other'))).toEqual([
        404,
        'EXECUTION_NOT_FOUND',
      ]);
      expect(await statusOf(byExecution(gateway, 'no-such-execution', ros))).toEqual([
        404,
        'EXECUTION_NOT_FOUND',
      ]);
      expect(await statusOf(byThread(gateway, 'never-ran', ros))).toEqual([404, 'EXECUTION_NOT_FOUND']);
      expect(await statusOf(byExecution(gateway, executionId, ''))).toEqual([400, 'INVALID_INPUT']);
      expect(await statusOf(byExecution(gateway, executionId, `${ros}&after=not-a-cursor`))).toEqual([
        400,
        'INVALID_INPUT',
      ]);
      expect(
        await statusOf(byExecution(gateway, executionId, ros), { 'last-event-id': 'ffffffffffffffff.1' }),
      ).toEqual([410, 'EVENTS_EXPIRED']);
      // Through AgentCore (its session header), the same refusal in AgentCore's form: one RUN_ERROR frame.
      const agentCore = await fetch(byExecution(gateway, executionId, 'rosInvocationId=other'), {
        headers: { 'x-amzn-bedrock-agentcore-runtime-session-id': 'session-refusals' },
      });
      expect(agentCore.status).toBe(404);
      expect(agentCore.headers.get('content-type')).toContain('text/event-stream');
      expect(parseSse(await agentCore.text()).events).toEqual([
        expect.objectContaining({ type: 'RUN_ERROR', code: 'EXECUTION_NOT_FOUND' }),
      ]);
      // The run's own cursors are accepted, from its last one (nothing after it) to before its first.
      const last = String(done.ids.at(-1));
      const tail = await openEvents(byExecution(gateway, executionId, `${ros}&after=${last}`)).finished;
      expect([tail.status, tail.events]).toEqual([200, []]);
    });

    it('on a thread bound to an AgentCore session, only that session may follow the run', async () => {
      const bound = await gateways.start({
        IAC_CODE_AGUI_REATTACH_SECONDS: '30',
        IAC_CODE_AGUI_SESSION_BINDING: 'true',
      });
      const session = { 'x-amzn-bedrock-agentcore-runtime-session-id': 'session-owner' };
      const done = await postRun(
        `${bound.url}invocations`,
        runInput({ threadId: 'bound', runId: 'run-bound' }),
        {
          headers: session,
        },
      );
      expect(done.events.at(-1)?.type).toBe('RUN_FINISHED');
      const follow = (headers: Record<string, string>) =>
        fetch(byThread(bound, 'bound', 'rosInvocationId=invocation-1'), { headers });
      const other = await follow({ 'x-amzn-bedrock-agentcore-runtime-session-id': 'session-other' });
      expect(other.status).toBe(404);
      expect(parseSse(await other.text()).events).toEqual([
        expect.objectContaining({ type: 'RUN_ERROR', code: 'EXECUTION_NOT_FOUND' }),
      ]);
      const none = await follow({});
      expect(none.status).toBe(404);
      const owner = await openEvents(byThread(bound, 'bound', 'rosInvocationId=invocation-1'), {
        headers: session,
      }).finished;
      expect([owner.status, owner.events]).toEqual([200, done.events]);
    });

    it('a run past its log bound stays reattachable inside the window: a flood cut after 1,500 events gets the rest, nothing twice; an older cursor is told the log moved on', async () => {
      const cancelsBefore = (await cancelsOf()).length;
      const owner = openRun(
        gateway.url,
        runInput({ threadId: 'flooded', runId: 'run-flood', text: 'flood' }),
        {
          disconnectAfterEvents: 1500,
        },
      );
      const before = await owner.finished;
      const rest = await openEvents(byThread(gateway, 'flooded', 'rosInvocationId=invocation-1'), {
        headers: { 'last-event-id': before.ids.at(-1) as string },
      }).finished;
      expect(rest.status).toBe(200);
      const ids = [...before.ids, ...rest.ids];
      const [token] = String(ids[0]).split('.');
      expect(ids).toEqual(ids.map((_, index) => `${token}.${index + 1}`));
      const whole = [...before.events, ...rest.events];
      expect(whole.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(FLOOD_DELTA_COUNT);
      expect(whole.at(-1)?.type).toBe('RUN_FINISHED');
      await expectConformantEvents(whole);
      // The run's log held no more than its own bound (IAC_CODE_AGUI_REATTACH_MAX_BYTES, 8 MiB by default).
      const logs = gateway.app.get(RunLogRegistry);
      expect(logs.forThread('flooded')?.log.bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
      expect(logs.heldBytes).toBeLessThanOrEqual(8 * 1024 * 1024);
      const older = await fetch(byThread(gateway, 'flooded', 'rosInvocationId=invocation-1'), {
        headers: { 'last-event-id': String(before.ids[10]) },
      });
      expect(older.status).toBe(410);
      expect(await older.json()).toEqual({
        error: {
          code: 'EVENTS_EXPIRED',
          message:
            'The run has moved on: its event log keeps only the newest events and no longer holds the ones after this id.',
        },
      });
      expect(await cancelsOf()).toHaveLength(cancelsBefore);
    }, 120_000);
  });
});
