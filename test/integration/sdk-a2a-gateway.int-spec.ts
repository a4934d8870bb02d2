import { AGENT_CARD_PATH, type AgentCard, Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { A2aFrame, A2aOutgoingMessage } from '../../src/wire/a2a-wire';
import { startKernelServer } from '../../src/demo-kernel/kernel-server';
import { SdkA2aGateway } from '../../src/a2a/sdk-a2a-gateway';
import { AguiError } from '../../src/common/agui-error';
import { ErrorCode } from '../../src/common/error-code';
import { eventually } from '../support/sse-client';

const TOKEN = 'upstream-secret';

/**
 * Scripted executor, keyed on the user text (docs/behaviour/a2a.md#sdk-notes):
 * `hello` answers and completes; `slow` works until cancelled and then publishes CANCELED itself;
 * `stall` works and ignores cancel, so CancelTask never answers (the hang of docs/behaviour/a2a.md#sdk-notes);
 * `violate` publishes a second `task` mid-stream, which the SDK server turns into a JSON-RPC error frame.
 */
class ScriptedExecutor implements AgentExecutor {
  private readonly cancelled = new Set<string>();
  private readonly stalled = new Set<string>();
  private readonly release = new AbortController();
  /** Wakes the `slow` / `stall` task waiting for its cancel. */
  private readonly onCancel = new Map<string, () => void>();

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const text =
      context.userMessage.parts[0]?.content?.$case === 'text'
        ? context.userMessage.parts[0].content.value
        : '';
    const task = Task.fromJSON({
      id: taskId,
      contextId,
      status: { state: 'TASK_STATE_SUBMITTED' },
      history: [],
    });
    bus.publish(AgentEvent.task(task));
    if (text === 'stall') this.stalled.add(taskId);
    const status = (state: TaskState, reply?: string) =>
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        metadata: { iac_code: { iacCodeSessionId: 'session-1' } },
        status: {
          state,
          timestamp: undefined,
          message: reply
            ? {
                messageId: `${taskId}-message`,
                contextId,
                taskId,
                role: 2,
                parts: [
                  {
                    content: { $case: 'text', value: reply },
                    metadata: undefined,
                    filename: '',
                    mediaType: '',
                  },
                ],
                metadata: undefined,
                extensions: [],
                referenceTaskIds: [],
              }
            : undefined,
        },
      });
    bus.publish(status(TaskState.TASK_STATE_WORKING, text === 'hello' ? 'Hi there' : undefined));
    if (text === 'hello') {
      bus.publish(status(TaskState.TASK_STATE_COMPLETED));
    } else if (text === 'violate') {
      bus.publish(AgentEvent.task(task));
    } else if (text === 'slow' || text === 'stall') {
      if (!this.cancelled.has(taskId) && !this.release.signal.aborted)
        await new Promise<void>((resolve) => {
          this.onCancel.set(taskId, resolve);
          this.release.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      this.onCancel.delete(taskId);
      if (this.cancelled.has(taskId)) bus.publish(status(TaskState.TASK_STATE_CANCELED));
    }
    bus.finished();
  }

  async cancelTask(taskId: string): Promise<void> {
    if (!this.stalled.has(taskId)) {
      this.cancelled.add(taskId);
      this.onCancel.get(taskId)?.();
    }
    await Promise.resolve();
  }

  stop(): void {
    this.release.abort();
  }
}

interface RecordedRequest {
  readonly path: string;
  readonly authorization?: string;
  readonly version?: string;
  readonly body?: { method?: string; params?: Record<string, unknown> };
}

interface ScriptedServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly closedResponses: string[];
  /** Answer the next JSON-RPC POSTs with HTTP 500. */
  failWith500: boolean;
  /** Answer the agent card with 503 (kernel not up yet). */
  cardDown: boolean;
  close(): Promise<void>;
}

async function startScriptedServer(): Promise<ScriptedServer> {
  const card: AgentCard = {
    name: 'scripted',
    description: 'scripted kernel',
    supportedInterfaces: [],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const executor = new ScriptedExecutor();
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const app = express();
  const state = { failWith500: false, cardDown: false };
  const requests: RecordedRequest[] = [];
  const closedResponses: string[] = [];
  app.use(express.json());
  app.use((req, res, next) => {
    const body = req.body as RecordedRequest['body'];
    requests.push({
      path: req.path,
      authorization: req.header('authorization'),
      version: req.header('a2a-version'),
      body,
    });
    res.on('close', () => closedResponses.push(String(body?.method)));
    if (req.header('authorization') !== `Bearer ${TOKEN}`)
      return void res.status(401).json({ error: 'unauthorized' });
    if (state.cardDown && req.path === `/${AGENT_CARD_PATH}`) return void res.status(503).end();
    if (state.failWith500 && req.method === 'POST') return void res.status(500).send('kernel exploded');
    next();
  });
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // The card advertises a different URL on purpose: the gateway pins JSON-RPC to its configured URL.
  card.supportedInterfaces.push({
    url: 'http://0.0.0.0:1/elsewhere',
    protocolBinding: 'JSONRPC',
    tenant: '',
    protocolVersion: '1.0',
  });
  return Object.assign(state, {
    url,
    requests,
    closedResponses,
    close: async () => {
      executor.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

function message(text: string, taskId?: string): A2aOutgoingMessage {
  return {
    messageId: `m-${text}-${Math.random()}`,
    role: 'ROLE_USER',
    parts: [{ text }],
    contextId: 'agui-context',
    ...(taskId ? { taskId } : {}),
    metadata: { iac_code: { cwd: '/tmp', preferredLanguage: 'en' } },
  };
}

async function collect(frames: AsyncIterable<A2aFrame>): Promise<A2aFrame[]> {
  const all: A2aFrame[] = [];
  for await (const frame of frames) all.push(frame);
  return all;
}

function stateOf(frame: A2aFrame): unknown {
  const update = (frame.statusUpdate ?? frame.task) as { status?: { state?: string } } | undefined;
  return update?.status?.state;
}

describe('SdkA2aGateway against an @a2a-js/sdk server', () => {
  let server: ScriptedServer;
  let gateway: SdkA2aGateway;

  beforeEach(async () => {
    server = await startScriptedServer();
    gateway = new SdkA2aGateway({ url: server.url, token: TOKEN, cancelTimeoutMs: 400 });
  });
  afterEach(async () => {
    await gateway.onApplicationShutdown();
    await server.close();
  });

  it('streams frames as wire JSON and sends the bearer and A2A-Version on every request', async () => {
    const frames = await collect(
      gateway.sendStreamingMessage(message('hello'), new AbortController().signal),
    );

    expect(frames.map((frame) => Object.keys(frame)[0])).toEqual(['task', 'statusUpdate', 'statusUpdate']);
    expect(frames.map(stateOf)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ]);
    expect(frames[1]).toEqual({
      statusUpdate: {
        taskId: expect.any(String),
        contextId: 'agui-context',
        status: {
          state: 'TASK_STATE_WORKING',
          message: expect.objectContaining({ role: 'ROLE_AGENT', parts: [{ text: 'Hi there' }] }),
        },
        metadata: { iac_code: { iacCodeSessionId: 'session-1' } },
      },
    });
    const card = server.requests.find((r) => r.path === `/${AGENT_CARD_PATH}`);
    const rpc = server.requests.find((r) => r.body?.method === 'SendStreamingMessage');
    expect(card).toMatchObject({ authorization: `Bearer ${TOKEN}`, version: '1.0' });
    expect(rpc).toMatchObject({ path: '/', authorization: `Bearer ${TOKEN}`, version: '1.0' });
    expect(rpc?.body?.params).toEqual({
      message: expect.objectContaining({
        role: 'ROLE_USER',
        parts: [{ text: 'hello' }],
        contextId: 'agui-context',
        metadata: { iac_code: { cwd: '/tmp', preferredLanguage: 'en' } },
      }),
      configuration: { acceptedOutputModes: ['text/plain'] },
    });
  });

  it('gets a task as { task } with historyLength 100 by default', async () => {
    const frames = await collect(
      gateway.sendStreamingMessage(message('hello'), new AbortController().signal),
    );
    const taskId = (frames[0].task as { id: string }).id;

    const snapshot = await gateway.getTask(taskId);

    expect(snapshot).toEqual({
      task: expect.objectContaining({
        id: taskId,
        status: expect.objectContaining({ state: 'TASK_STATE_COMPLETED' }),
      }),
    });
    expect(server.requests.find((r) => r.body?.method === 'GetTask')?.body?.params).toEqual({
      id: taskId,
      historyLength: 100,
    });
  });

  it('cancels a running task: the stream ends with CANCELED and cancelTask resolves', async () => {
    const iterator = gateway
      .sendStreamingMessage(message('slow'), new AbortController().signal)
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    const taskId = (first.value as { task: { id: string } }).task.id;

    await expect(gateway.cancelTask(taskId)).resolves.toBeUndefined();
    const rest: A2aFrame[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);

    expect(rest.map(stateOf)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_CANCELED']);
    expect(server.requests.find((r) => r.body?.method === 'CancelTask')?.body?.params).toEqual({
      id: taskId,
    });
  });

  it('rejects cancelTask with A2A_UNAVAILABLE once the cancel timeout passes on a server that never answers', async () => {
    const iterator = gateway
      .sendStreamingMessage(message('stall'), new AbortController().signal)
      [Symbol.asyncIterator]();
    const taskId = ((await iterator.next()).value as { task: { id: string } }).task.id;
    const started = performance.now();

    const outcome = await gateway.cancelTask(taskId).catch((error: unknown) => error);

    const elapsed = performance.now() - started;
    expect(outcome).toBeInstanceOf(AguiError);
    expect((outcome as AguiError).code).toBe(ErrorCode.A2A_UNAVAILABLE);
    // The cancel timeout (400 ms here) is the behaviour under test: it must have run out, and no other timer
    // (the next shortest is the card's 5 s; the bound below it leaves a loaded machine 4 s of lag).
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(4500);
    await iterator.return?.();
  });

  it('subscribes to a running task: the snapshot first, then live frames until CANCELED', async () => {
    const run = gateway
      .sendStreamingMessage(message('slow'), new AbortController().signal)
      [Symbol.asyncIterator]();
    const taskId = ((await run.next()).value as { task: { id: string } }).task.id;
    const subscription = gateway
      .subscribeToTask(taskId, new AbortController().signal)
      [Symbol.asyncIterator]();
    const snapshot = (await subscription.next()).value as A2aFrame;

    await gateway.cancelTask(taskId);
    const live: A2aFrame[] = [];
    for (let next = await subscription.next(); !next.done; next = await subscription.next())
      live.push(next.value);

    expect(snapshot).toEqual({ task: expect.objectContaining({ id: taskId }) });
    expect(stateOf(live[live.length - 1])).toBe('TASK_STATE_CANCELED');
    expect(server.requests.find((r) => r.body?.method === 'SubscribeToTask')?.body?.params).toEqual({
      id: taskId,
    });
    await run.return?.();
  });

  it('throws when a JSON-RPC error frame arrives mid-stream', async () => {
    const frames: A2aFrame[] = [];
    const outcome = await (async () => {
      for await (const frame of gateway.sendStreamingMessage(
        message('violate'),
        new AbortController().signal,
      ))
        frames.push(frame);
    })().catch((error: unknown) => error);

    expect(frames.map(stateOf)).toEqual(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(/SSE event contained an error/);
  });

  it('throws when the upstream answers HTTP 500', async () => {
    await gateway.checkReady();
    server.failWith500 = true;

    await expect(
      collect(gateway.sendStreamingMessage(message('hello'), new AbortController().signal)),
    ).rejects.toThrow(/500/);
  });

  it('ends the stream with AbortError on abort and releases the HTTP response', async () => {
    const controller = new AbortController();
    const frames: A2aFrame[] = [];
    const outcome = await (async () => {
      for await (const frame of gateway.sendStreamingMessage(message('slow'), controller.signal)) {
        frames.push(frame);
        controller.abort();
      }
    })().catch((error: unknown) => error);

    expect(frames).toHaveLength(1);
    expect((outcome as Error).name).toBe('AbortError');
    const closed = await eventually(
      async () => server.closedResponses,
      (methods) => methods.includes('SendStreamingMessage'),
    );
    expect(closed).toContain('SendStreamingMessage');
  });

  it('does not start a stream when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();

    await expect(
      collect(gateway.sendStreamingMessage(message('hello'), controller.signal)),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toEqual([]);
  });

  it('retries client creation after the agent card was unavailable', async () => {
    server.cardDown = true;
    await expect(
      collect(gateway.sendStreamingMessage(message('hello'), new AbortController().signal)),
    ).rejects.toThrow(/503/);
    await expect(gateway.checkReady()).rejects.toThrow(/503/);

    server.cardDown = false;
    const frames = await collect(
      gateway.sendStreamingMessage(message('hello'), new AbortController().signal),
    );

    expect(frames.map(stateOf)).toContain('TASK_STATE_COMPLETED');
    await expect(gateway.checkReady()).resolves.toBeUndefined();
  });

  it('is not ready with a wrong token', async () => {
    const stranger = new SdkA2aGateway({ url: server.url, token: 'wrong', cancelTimeoutMs: 400 });
    try {
      await expect(stranger.checkReady()).rejects.toThrow(/401/);
    } finally {
      await stranger.onApplicationShutdown();
    }
  });
});

describe('SdkA2aGateway against the kernel-like server (CRLF SSE, `: ping` comments, version gate)', () => {
  let kernel: { url: string; close(): Promise<void> };
  let gateway: SdkA2aGateway;

  beforeAll(async () => {
    kernel = await startKernelServer({ token: TOKEN, pingIntervalMs: 50 });
    gateway = new SdkA2aGateway({ url: kernel.url, token: TOKEN, cancelTimeoutMs: 2000 });
  });
  afterAll(async () => {
    await gateway.onApplicationShutdown();
    await kernel.close();
  });

  it('reads a whole demo turn, opening with the task and ending at the kernel end-of-turn state', async () => {
    const frames = await collect(
      gateway.sendStreamingMessage(message('hello there'), new AbortController().signal),
    );

    expect(Object.keys(frames[0])).toEqual(['task']);
    expect(frames.length).toBeGreaterThan(3);
    expect(stateOf(frames[frames.length - 1])).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('keeps reading across ping comments and ends with CANCELED after cancelTask', async () => {
    const iterator = gateway
      .sendStreamingMessage(message('silent'), new AbortController().signal)
      [Symbol.asyncIterator]();
    const taskId = ((await iterator.next()).value as { task: { id: string } }).task.id;
    // A timer on purpose: the kernel's ping period (50 ms here) is what this case is about, so several
    // `: ping` comments must go by before the cancel.
    await sleep(300);

    await gateway.cancelTask(taskId);
    const states: unknown[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      states.push(stateOf(next.value));

    expect(states[states.length - 1]).toBe('TASK_STATE_CANCELED');
  });
});
