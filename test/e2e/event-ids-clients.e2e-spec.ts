import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import { EventSource } from 'eventsource';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { readWithPythonSdk } from '../support/python-sdk';
import { parseSse } from '../support/sse-client';
import { runInput } from '../support/run-input';
import { useGateway } from '../support/use-gateway';

/** The HttpAgent CopilotKit 1.75 bundles (its own @ag-ui/client 0.0.59). */
type BundledClient = typeof import('@ag-ui/client');
const BUNDLED_CLIENT = path.resolve(
  __dirname,
  '../../node_modules/@copilotkit/core/node_modules/@ag-ui/client/dist/index.js',
);

/** What an agent saw, and the raw bytes the gateway sent it (teed off its fetch). */
async function runWith(Agent: typeof HttpAgent, url: string, threadId: string) {
  let raw = '';
  const tee: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const [mine, theirs] = (response.body as ReadableStream<Uint8Array>).tee();
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of mine as unknown as AsyncIterable<Uint8Array>)
        raw += decoder.decode(chunk, { stream: true });
    })();
    return new Response(theirs, { status: response.status, headers: response.headers });
  };
  const input = runInput({ threadId });
  const agent = new Agent({ url, threadId, fetch: tee } as ConstructorParameters<typeof HttpAgent>[0]);
  agent.messages.push(...(input.messages as HttpAgent['messages']));
  const seen: BaseEvent[] = [];
  const failures: unknown[] = [];
  await agent.runAgent(
    { runId: `run-${threadId}`, forwardedProps: input.forwardedProps },
    {
      onEvent: ({ event }: { event: BaseEvent }) => void seen.push(event),
      onRunFailed: ({ error }: { error: Error }) => void failures.push(error),
    },
  );
  return { seen, failures, raw };
}

/**
 * Every SSE event now carries an `id:` line (docs/behaviour/reattach.md#event-ids): the clients users run
 * read these streams exactly as before, event for event (HttpAgent, the bundled @ag-ui/client, the Python
 * ag-ui-protocol SDK's models), and a standard parser sees the ids.
 */
describe('event ids and the clients that read them', () => {
  const gateway = useGateway({ upstream: true, env: { IAC_CODE_AGUI_REATTACH_SECONDS: '30' } });

  it.each([
    ['HttpAgent 1.0', () => HttpAgent],
    [
      'the @ag-ui/client 0.0.59 CopilotKit 1.75 bundles',
      () => (createRequire(__filename)(BUNDLED_CLIENT) as BundledClient).HttpAgent,
    ],
  ])('%s gets every event of the stream, unchanged', async (_name, agentClass) => {
    const threadId = `ids-${_name.length}`;
    const Agent = agentClass() as typeof HttpAgent;
    const { seen, failures, raw } = await runWith(Agent, gateway.url, threadId);
    expect(failures).toEqual([]);
    const sent = parseSse(raw);
    expect(sent.ids.every((id) => id !== undefined)).toBe(true);
    expect(seen).toEqual(sent.events);
    expect(seen.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('a WHATWG parser (eventsource-parser) reads the same data with each id', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(runInput({ threadId: 'ids-whatwg', runId: 'run-whatwg' })),
    });
    const raw = await response.text();
    const messages: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => messages.push(message) });
    parser.feed(raw);
    const sent = parseSse(raw);
    expect(messages.map((message) => JSON.parse(message.data) as BaseEvent)).toEqual(sent.events);
    expect(messages.map((message) => message.id)).toEqual(sent.ids);
  });

  it.each([
    ['a turn with reasoning, a tool call and text', 'hello'],
    ['a turn that ends at an interrupt', 'permission'],
  ])(
    'the Python ag-ui-protocol SDK validates every event of %s, the same as without ids',
    async (_n, text) => {
      const runId = `run-python-${text}`;
      const response = await fetch(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(runInput({ threadId: `ids-python-${text}`, runId, text })),
      });
      const raw = await response.text();
      const sent = parseSse(raw);
      const withIds = await readWithPythonSdk(raw);
      // The same bytes as a stream from before event ids: its `id:` lines taken out.
      const withoutIds = await readWithPythonSdk(raw.replace(/^id:.*\n/gm, ''));
      expect(withIds.map((read) => read.event)).toEqual(sent.events);
      expect(withIds.map((read) => read.id)).toEqual(sent.ids);
      expect(withoutIds.map(({ model, event }) => ({ model, event }))).toEqual(
        withIds.map(({ model, event }) => ({ model, event })),
      );
      expect(withoutIds.every((read) => read.id === null)).toBe(true);
      // Each validated as the SDK's own class for its type (RUN_STARTED as RunStartedEvent, …).
      for (const { model, event } of withIds)
        expect(model.replace(/Event$/, '').toLowerCase()).toBe(
          String(event.type).replace(/_/g, '').toLowerCase(),
        );
      expect(sent.events.at(-1)?.type).toBe('RUN_FINISHED');
    },
  );

  it('a browser-style EventSource follows a run over the reattach route, lastEventId on each event', async () => {
    const threadId = 'ids-eventsource';
    const done = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(runInput({ threadId, runId: 'run-eventsource' })),
    });
    const sent = parseSse(await done.text());
    const source = new EventSource(
      `${gateway.url}extensions/iac-code/v1/threads/${threadId}/events?rosInvocationId=invocation-1`,
    );
    const received = await new Promise<{ id: string; event: BaseEvent }[]>((resolve, reject) => {
      const events: { id: string; event: BaseEvent }[] = [];
      source.onmessage = (message) => {
        const event = JSON.parse(String(message.data)) as BaseEvent;
        events.push({ id: message.lastEventId, event });
        if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') resolve(events);
      };
      source.onerror = (error) => reject(new Error(`EventSource failed: ${String(error.message)}`));
    }).finally(() => source.close());
    expect(received.map((entry) => entry.event)).toEqual(sent.events);
    expect(received.map((entry) => entry.id)).toEqual(sent.ids);
  });
});
