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

  it('connect on a thread with nothing in flight completes with no events, as HttpAgent does', async () => {
    const { agent } = agentWith([
      () =>
        new Response(JSON.stringify({ error: { code: 'EXECUTION_NOT_FOUND', message: '…' } }), {
          status: 404,
        }),
    ]);
    expect(await lastValueFrom(agent.connect(input).pipe(toArray()))).toEqual([]);
  });

  it('connect still fails at a real refusal (401, another caller’s thread)', async () => {
    for (const [status, code] of [
      [401, 'UNAUTHORIZED'],
      [409, 'THREAD_BINDING_CONFLICT'],
    ] as const) {
      const { agent } = agentWith([
        () => new Response(JSON.stringify({ error: { code, message: '…' } }), { status }),
      ]);
      await expect(lastValueFrom(agent.connect(input))).rejects.toMatchObject({ status, code });
    }
  });
});

describe('ReattachingHttpAgent.abortRun (docs/behaviour/reattach.md#the-client)', () => {
  const session = {
    type: 'CUSTOM',
    name: 'iac-code.session.v1',
    value: { executionId: 'execution-1', rosInvocationId: 'invocation-1' },
  };
  const started = record('t.1', { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' });
  const cancelled = record('t.3', { type: 'RUN_ERROR', code: 'CANCELLED', message: 'cancelled' });
  /** A run stream that sends `text`, then what `push` is given, and stays open until aborted or closed. */
  const openStream = (init?: RequestInit, text = started + record('t.2', session)) => {
    let push!: (text: string | undefined) => void;
    const response = new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
          push = (more) => {
            if (more === undefined) return controller.close();
            controller.enqueue(new TextEncoder().encode(more));
          };
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
    return { response, push };
  };

  /**
   * An agent on a fake gateway whose first run streams until cancelled: a cancel answered 200 ends it with
   * RUN_ERROR CANCELLED first, as the gateway does; later requests get `afterCancel` in turn.
   */
  function stoppableAgent(answerCancel: Promise<Response>, afterCancel: (() => Response)[]) {
    const requests: { url: string; init?: RequestInit }[] = [];
    let run: ReturnType<typeof openStream> | undefined;
    const agent = new ReattachingHttpAgent({
      url: 'http://gateway.test/',
      threadId: 'thread-1',
      headers: { Authorization: 'Bearer t' },
      fetch: (url, init) => {
        requests.push({ url: String(url), init });
        if (String(url).endsWith('/cancel'))
          return answerCancel.then((response) => {
            if (response.ok) {
              run?.push(cancelled);
              run?.push(undefined);
            }
            return response;
          });
        if (requests.length === 1) {
          run = openStream(init);
          return Promise.resolve(run.response);
        }
        const next = afterCancel.shift();
        return Promise.resolve(next ? next() : sse(''));
      },
      reattach: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 },
    });
    return { agent, requests };
  }

  /** Runs until the session event, then Stop: the run's event types. */
  async function stopAfterSession(agent: ReattachingHttpAgent, whenStopped = () => undefined) {
    const events: string[] = [];
    let sawSession!: () => void;
    const hasSession = new Promise<void>((resolve) => (sawSession = resolve));
    const running = agent.runAgent(
      { runId: 'run-1', forwardedProps: input.forwardedProps },
      {
        onEvent: ({ event }) => {
          events.push(event.type);
          if (event.type === 'CUSTOM') sawSession();
        },
      },
    );
    await hasSession;
    agent.abortRun();
    whenStopped();
    await running;
    return events;
  }

  it("cancels the execution the session event named; the run ends with the gateway's RUN_ERROR CANCELLED", async () => {
    let answer!: (response: Response) => void;
    const { agent, requests } = stoppableAgent(new Promise((resolve) => (answer = resolve)), []);
    const events = await stopAfterSession(agent, () => {
      expect(requests.map((request) => [request.init?.method, request.url])).toEqual([
        ['POST', 'http://gateway.test/'],
        ['POST', 'http://gateway.test/extensions/iac-code/v1/executions/execution-1/cancel'],
      ]);
      expect(JSON.parse(String(requests[1].init?.body))).toEqual({
        threadId: 'thread-1',
        rosInvocationId: 'invocation-1',
      });
      expect((requests[1].init?.headers as Record<string, string>).Authorization).toBe('Bearer t');
      // Until the cancel answered, the run is not over.
      expect(agent.isRunning).toBe(true);
      answer(
        new Response(JSON.stringify({ executionId: 'execution-1', status: 'cancelled' }), { status: 200 }),
      );
    });
    expect(events).toEqual(['RUN_STARTED', 'CUSTOM', 'RUN_ERROR']);
    expect(requests).toHaveLength(2);
  });

  it('a refused cancel is an abort: the run ends at once, nothing follows it', async () => {
    const refused = new Response(JSON.stringify({ error: { code: 'EXECUTION_NOT_FOUND' } }), { status: 404 });
    const { agent, requests } = stoppableAgent(Promise.resolve(refused), []);
    expect(await stopAfterSession(agent)).toEqual(['RUN_STARTED', 'CUSTOM']);
    expect(requests).toHaveLength(2);
  });

  it('the next run is posted once the cancel answered, and a busy thread then is a refusal, not retried', async () => {
    let answer!: (response: Response) => void;
    const busy = () =>
      new Response(JSON.stringify({ error: { code: 'THREAD_BUSY', message: '…' } }), { status: 409 });
    const { agent, requests } = stoppableAgent(new Promise((resolve) => (answer = resolve)), [busy]);
    let next: Promise<unknown> | undefined;
    let requestsBeforeAnswer = 0;
    await stopAfterSession(agent, () => {
      // The next prompt comes before the cancel is answered (CopilotKit's, right after its Stop).
      next = lastValueFrom(agent.run({ ...input, runId: 'run-2' }));
      requestsBeforeAnswer = requests.length;
      answer(new Response(JSON.stringify({ status: 'cancelled' }), { status: 200 }));
    });
    await expect(next).rejects.toMatchObject({ status: 409, code: 'THREAD_BUSY' });
    expect(requestsBeforeAnswer).toBe(2);
    expect(requests.map((request) => request.url.replace('http://gateway.test/', '/'))).toEqual([
      '/',
      '/extensions/iac-code/v1/executions/execution-1/cancel',
      '/',
    ]);
  });

  it('before the session event there is nothing to cancel: only the abort', async () => {
    const requests: string[] = [];
    const agent = new ReattachingHttpAgent({
      url: 'http://gateway.test/',
      fetch: (url, init) => {
        requests.push(String(url));
        return Promise.resolve(openStream(init, started).response);
      },
    });
    let sawStart!: () => void;
    const hasStarted = new Promise<void>((resolve) => (sawStart = resolve));
    const running = agent.runAgent(
      { runId: 'run-1', forwardedProps: input.forwardedProps },
      { onEvent: () => sawStart() },
    );
    await hasStarted;
    agent.abortRun();
    await running;
    expect(requests).toEqual(['http://gateway.test/']);
  });
});
