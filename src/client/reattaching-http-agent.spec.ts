import type { RunAgentInput } from '@ag-ui/client';
import { lastValueFrom, toArray } from 'rxjs';
import { GatewayRefusalError, ReattachingHttpAgent } from './reattaching-http-agent';

const input: RunAgentInput = {
  threadId: 'thread-1',
  runId: 'run-1',
  state: {},
  messages: [],
  tools: [],
  context: [],
  forwardedProps: { iacCode: { rosInvocationId: 'invocation-1' } },
};
const record = (id: string, event: object) => `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
const sse = (text: string) =>
  new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });

/** An agent whose fetch answers from `answers` in turn, recording each request. */
function agentWith(answers: (() => Response)[], maxAttempts = 2) {
  const requests: { url: string; init?: RequestInit }[] = [];
  const agent = new ReattachingHttpAgent({
    url: 'http://gateway.test/',
    fetch: (url, init) => {
      requests.push({ url: String(url), init });
      const answer = answers.shift();
      return Promise.resolve(answer ? answer() : sse(''));
    },
    reattach: { maxAttempts, initialDelayMs: 1, maxDelayMs: 2 },
  });
  return { agent, requests };
}

describe('ReattachingHttpAgent (docs/behaviour/reattach.md#the-client)', () => {
  it('after a stream that ends early, reattaches over the thread route from the last id', async () => {
    const { agent, requests } = agentWith([
      () => sse(record('t.1', { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' })),
      () => sse(record('t.2', { type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1' })),
    ]);
    const events = await lastValueFrom(agent.run(input).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(requests[1].url).toBe(
      'http://gateway.test/extensions/iac-code/v1/threads/thread-1/events?rosInvocationId=invocation-1',
    );
    expect((requests[1].init?.headers as Record<string, string>)['Last-Event-ID']).toBe('t.1');
  });

  it('gives up after its attempts in a row without an event', async () => {
    const { agent, requests } = agentWith([
      () => sse(record('t.1', { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' })),
    ]);
    await expect(lastValueFrom(agent.run(input))).rejects.toThrow('2 reattaches failed');
    expect(requests).toHaveLength(3);
  });

  it('stops at a refusal: following the run again cannot help', async () => {
    const { agent, requests } = agentWith([
      () => sse(record('t.1', { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' })),
      () =>
        new Response(JSON.stringify({ error: { code: 'EVENTS_EXPIRED', message: '…' } }), {
          status: 410,
        }),
    ]);
    const failure = lastValueFrom(agent.run(input));
    await expect(failure).rejects.toBeInstanceOf(GatewayRefusalError);
    await expect(failure).rejects.toMatchObject({ status: 410, code: 'EVENTS_EXPIRED' });
    expect(requests).toHaveLength(2);
  });
});
