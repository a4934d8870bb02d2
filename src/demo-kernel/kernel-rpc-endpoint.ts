import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import {
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
  type A2ARequestHandler,
} from '@a2a-js/sdk/server';
import type { Clock } from '../common/clock';
import { writeInjectedFault } from './faults/injected-fault-response';
import { gateKernelAnswer } from './kernel-answer-gate';
import type { KernelFaultInjector } from './faults/kernel-fault-injector';
import { kernelSessionId, statusFrame } from './kernel-frames';
import type { KernelGuidance } from './kernel-guidance';
import type { KernelScriptBook } from './kernel-script';
import { writeJson, writeKernelSse } from './kernel-sse-writer';
import type { PendingKernelInputs, PermissionReceipt } from './pending-kernel-inputs';
import { userTextOf } from './user-text-of';
import { withWaitingInputs } from './waiting-inputs-snapshot';

export interface KernelRpcEndpointOptions {
  readonly card: AgentCard;
  readonly requestHandler: A2ARequestHandler;
  readonly scripts: KernelScriptBook;
  readonly pingIntervalMs: number;
  readonly clock: Clock;
  /** What tasks wait for: answers are checked against it before the SDK sees them. */
  readonly inputs: PendingKernelInputs;
  /** Where user messages for a running turn (guidance for a live Pipeline) are handed over. */
  readonly guidance: KernelGuidance;
  /** Faults armed by tests; absent in the demo agent. */
  readonly faults?: KernelFaultInjector;
}

const MESSAGE_METHODS = new Set(['SendStreamingMessage', 'SendMessage']);

interface Call {
  readonly requestId: unknown;
  readonly context: ServerCallContext;
  readonly response: ServerResponse;
}

type Rpc = { readonly method?: unknown; readonly params?: Record<string, unknown>; readonly id?: unknown };

/**
 * `POST /`: JSON-RPC 2.0 through the SDK's `JsonRpcTransportHandler` (which answers 0.3 method names with
 * -32601 and GetTask/CancelTask with the bare task, as the kernel does), behind the kernel's version gate
 * and its strict check of answers to waiting tasks.
 */
export class KernelRpcEndpoint {
  private readonly transport: JsonRpcTransportHandler;

  constructor(private readonly options: KernelRpcEndpointOptions) {
    this.transport = new JsonRpcTransportHandler(options.requestHandler);
  }

  async handle(request: IncomingMessage, body: string, response: ServerResponse): Promise<void> {
    const rpc = parseJson(body) as Rpc | undefined;
    const requestId = rpc?.id ?? null;
    const context = new ServerCallContext({
      requestedExtensions: Extensions.parseServiceParameter(headerOf(request, HTTP_EXTENSION_HEADER)),
      requestedVersion: headerOf(request, A2A_VERSION_HEADER),
      state: new Map([['headers', request.headers]]),
    });
    try {
      // A missing A2A-Version means 0.3, which the kernel refuses with -32009 (docs/behaviour/a2a.md#sdk-notes).
      validateVersion(context.requestedVersion, this.options.card, 'JSONRPC');
    } catch (error) {
      writeJson(response, 200, {
        jsonrpc: '2.0',
        id: requestId,
        error: JsonRpcTransportHandler.mapToJSONRPCError(error),
      });
      return;
    }
    const method = typeof rpc?.method === 'string' ? rpc.method : '';
    const fault = this.options.faults?.take(method);
    if (fault) return writeInjectedFault(response, fault, requestId);
    const preStreamStatus = this.preStreamHttpStatus(rpc);
    if (preStreamStatus !== undefined) {
      writeJson(response, preStreamStatus, {
        jsonrpc: '2.0',
        id: requestId,
        error: { code: -32603, message: 'Internal error' },
      });
      return;
    }
    const gate = gateKernelAnswer(rpc, this.options.inputs);
    if (gate.kind === 'reject') {
      writeJson(response, 200, {
        jsonrpc: '2.0',
        id: requestId,
        error: { code: -32602, message: gate.message },
      });
      return;
    }
    const call: Call = { requestId, context, response };
    if (gate.kind === 'running-turn') {
      return this.answerRunningTurn(
        method,
        gate.taskId,
        () => this.options.inputs.deliver(gate.taskId, gate.answer),
        call,
      );
    }
    if (gate.kind === 'duplicate') return this.acknowledgeDuplicate(method, gate.taskId, gate.receipt, call);
    if (gate.kind === 'new-turn') this.options.inputs.deliver(gate.taskId, gate.answer);
    const guidedTaskId = gate.kind === 'pass' ? this.runningTaskOf(rpc) : undefined;
    if (guidedTaskId !== undefined) {
      const text = userTextOf(rpc?.params?.message);
      return this.answerGuidance(method, guidedTaskId, text, { requestId, context, response });
    }
    const answer = await this.transport.handle(rpc ?? body, context);
    if (isAsyncIterable(answer)) return this.stream(answer, requestId, response);
    writeJson(response, 200, withWaitingInputs(this.options.inputs, method, answer));
  }

  /**
   * A sideband answer to a task whose turn keeps running (docs/behaviour/interrupts.md#forwarding-answers): the kernel routes it to the
   * waiting sub-pipeline and does not start a turn. `SendMessage` gets the task as it is now; a
   * streaming answer gets the task's live events, as `SubscribeToTask` would, and the answer is handed
   * over only once that subscription has its snapshot, so none of the events it causes are missed.
   */
  private async answerRunningTurn(
    method: string,
    taskId: string,
    deliver: () => void,
    call: Call,
  ): Promise<void> {
    const { requestId, context, response } = call;
    if (method === 'SendMessage') {
      deliver();
      return this.writeTaskOf(taskId, call);
    }
    const events = await this.transport.handle(
      { jsonrpc: '2.0', id: requestId, method: 'SubscribeToTask', params: { id: taskId } },
      context,
    );
    if (!isAsyncIterable(events)) return writeJson(response, 200, events);
    return this.stream(deliverAfterFirst(events, deliver), requestId, response);
  }

  /** A user message (no answer) for a task whose turn is running: guidance for its live Pipeline. */
  private runningTaskOf(rpc: Rpc | undefined): string | undefined {
    if (typeof rpc?.method !== 'string' || !MESSAGE_METHODS.has(rpc.method)) return undefined;
    const taskId = (rpc.params?.message as { taskId?: unknown } | undefined)?.taskId;
    return typeof taskId === 'string' && this.options.inputs.isRunning(taskId) ? taskId : undefined;
  }

  /**
   * The kernel routes guidance into the running Pipeline and starts no turn; the request's own stream
   * only acknowledges it: the task as it is now, then WORKING, then the end. The Pipeline's events keep
   * going to the stream of the turn that runs. `SendMessage` gets the task.
   */
  private async answerGuidance(
    method: string,
    taskId: string,
    text: string,
    call: { requestId: unknown; context: ServerCallContext; response: ServerResponse },
  ): Promise<void> {
    const { requestId, context, response } = call;
    this.options.guidance.deliver(taskId, text);
    const got = (await this.transport.handle(
      { jsonrpc: '2.0', id: requestId, method: 'GetTask', params: { id: taskId } },
      context,
    )) as { result?: { contextId?: unknown } };
    if (!got.result) return writeJson(response, 200, got);
    const task = got.result;
    const ids = {
      taskId,
      contextId: String(task.contextId ?? ''),
      sessionId: kernelSessionId(String(task.contextId ?? '')),
    };
    const envelope = (result: unknown) => ({ jsonrpc: '2.0', id: requestId, result });
    if (method === 'SendMessage') return writeJson(response, 200, envelope({ task }));
    return this.stream(
      listOf([envelope({ task }), envelope(statusFrame(ids, 'TASK_STATE_WORKING'))]),
      requestId,
      response,
    );
  }

  /**
   * A repeated permission answer: one WORKING frame whose `inputReceived` is marked `duplicate`, then the
   * stream ends (`SendMessage` gets the task as it is); nothing reaches the task.
   */
  private acknowledgeDuplicate(method: string, taskId: string, receipt: PermissionReceipt, call: Call) {
    if (method === 'SendMessage') return this.writeTaskOf(taskId, call);
    const { contextId, value, decision } = receipt;
    const ids = { taskId, contextId, sessionId: kernelSessionId(contextId) };
    const inputReceived = {
      kind: 'permission',
      inputId: value.inputId,
      toolUseId: value.toolUseId,
      decision,
      recovered: true,
      duplicate: true,
    };
    const { statusUpdate } = statusFrame(ids, 'TASK_STATE_WORKING', { iacCode: { inputReceived } }) as {
      statusUpdate: Record<string, unknown>;
    };
    const timestamp = new Date(this.options.clock.now()).toISOString();
    const result = {
      statusUpdate: { ...statusUpdate, status: { ...(statusUpdate.status as object), timestamp } },
    };
    const envelope = { jsonrpc: '2.0', id: call.requestId, result };
    return this.stream(
      // eslint-disable-next-line @typescript-eslint/require-await -- an AsyncIterable of one value: nothing to await
      (async function* () {
        yield envelope;
      })(),
      call.requestId,
      call.response,
    );
  }

  /** `SendMessage` answered with the task as it is now, as `result.task`. */
  private async writeTaskOf(taskId: string, { requestId, context, response }: Call): Promise<void> {
    const got = await this.transport.handle(
      { jsonrpc: '2.0', id: requestId, method: 'GetTask', params: { id: taskId } },
      context,
    );
    const { result, error } = withWaitingInputs(this.options.inputs, 'GetTask', got) as {
      result?: unknown;
      error?: unknown;
    };
    return writeJson(response, 200, {
      jsonrpc: '2.0',
      id: requestId,
      ...(error ? { error } : { result: { task: result } }),
    });
  }

  private stream(
    events: AsyncIterable<unknown>,
    requestId: unknown,
    response: ServerResponse,
  ): Promise<void> {
    return writeKernelSse(response, events, {
      requestId,
      pingIntervalMs: this.options.pingIntervalMs,
      clock: this.options.clock,
      toJsonRpcError: (error) => JsonRpcTransportHandler.mapToJSONRPCError(error),
    });
  }

  /** The `http-500` script answers before any stream, so the script is chosen here, from the request. */
  private preStreamHttpStatus(rpc: Rpc | undefined): number | undefined {
    const { method, params } = rpc ?? {};
    if (typeof method !== 'string' || !MESSAGE_METHODS.has(method)) return undefined;
    return this.options.scripts.select(userTextOf(params?.message)).preStreamHttpStatus;
  }
}

/** Yields `events`, calling `deliver` once the first item (the snapshot) has been taken. */
async function* deliverAfterFirst(
  events: AsyncIterable<unknown>,
  deliver: () => void,
): AsyncGenerator<unknown> {
  let isDelivered = false;
  for await (const event of events) {
    yield event;
    if (!isDelivered) {
      isDelivered = true;
      deliver();
    }
  }
}

// eslint-disable-next-line @typescript-eslint/require-await -- an AsyncIterable of given values: nothing to await
async function* listOf(items: readonly unknown[]): AsyncGenerator<unknown> {
  yield* items;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return (Array.isArray(value) ? value.join(',') : value) || undefined;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | undefined)?.[Symbol.asyncIterator] === 'function';
}
