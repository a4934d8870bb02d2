import {
  type AgentCard,
  CancelTaskRequest,
  GetTaskRequest,
  SendMessageRequest,
  Message,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import type { A2aCallObserver } from '../metrics/a2a-call-observer';
import { ErrorCode } from '../common/error-code';
import type { A2aGateway } from './a2a-gateway';
import type { A2aFrame, A2aOutgoingMessage } from '../wire/a2a-wire';
import { streamJsonRpc, type JsonRpcStreamCall } from './json-rpc-stream';
import { PinnedAgentCardResolver } from './pinned-agent-card-resolver';
import { failingOnHttpErrors, isSessionBackupNotReady } from './upstream-error';
import { createUpstreamFetch, type UpstreamFetch } from './upstream-fetch';
import { withTrailingSlash } from './upstream';

export interface SdkA2aGatewayOptions {
  /** Kernel base URL; the agent card is read from `<url>.well-known/agent-card.json`. */
  readonly url: string;
  /** Bearer for every kernel route (IAC_CODE_AGUI_A2A_TOKEN or the managed child's generated token). */
  readonly token?: string;
  /** IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS in milliseconds. */
  readonly cancelTimeoutMs: number;
  /** IAC_CODE_AGUI_A2A_IDLE_SECONDS in milliseconds (default 120 s). */
  readonly idleMs?: number;
  /** IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS in milliseconds (default 60 s). */
  readonly callTimeoutMs?: number;
  /** Bound on one agent-card fetch (client creation and readiness). */
  readonly cardTimeoutMs?: number;
  /** Times and traces each call and sends its W3C trace headers; calls go unobserved without it. */
  readonly observer?: Pick<A2aCallObserver, 'call' | 'stream'>;
}

/** Without an observer (unit tests), calls run as they are, with no trace headers. */
const UNOBSERVED: Pick<A2aCallObserver, 'call' | 'stream'> = {
  call: (_method, send) => send({}),
  stream: (_method, open) => open({}),
};

/** docs/behaviour/a2a.md#transport: GetTask asks for the last 100 history entries unless told otherwise. */
export const DEFAULT_HISTORY_LENGTH = 100;
const DEFAULT_CARD_TIMEOUT_MS = 5000;
const DEFAULT_IDLE_MS = 120_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** docs/behaviour/a2a.md#transport: the adapter only accepts text output modes. */
const ACCEPTED_OUTPUT_MODES = ['text/plain'];

/** The SDK client and what the streaming calls read from the card it was made from. */
interface KernelClient {
  readonly client: Client;
  /** The card's JSON-RPC interface, where the SDK's transport posts. */
  readonly endpoint: string;
  /** The interface's tenant, which the SDK puts on every request when it is not empty. */
  readonly tenant: string;
  /** Without the capability the SDK falls back to `SendMessage`; the gateway then lets it. */
  readonly streaming: boolean;
}

/**
 * The A2A 1.0 JSON-RPC client of the gateway, over `@a2a-js/sdk/client` (docs/behaviour/a2a.md#sdk-notes)
 * for the agent card and the unary calls. The two streaming calls send the SDK's request and read its
 * answer with a reader of their own (`streamJsonRpc`), which hands on the same frames and errors at a
 * fraction of the cost per frame (docs/benchmarks.md).
 */
export class SdkA2aGateway implements A2aGateway, OnApplicationShutdown {
  private readonly logger = new Logger(SdkA2aGateway.name);
  private readonly baseUrl: string;
  private readonly upstreamFetch: UpstreamFetch;
  private readonly resolver: PinnedAgentCardResolver;
  private readonly factory: ClientFactory;
  private kernelPromise?: Promise<KernelClient>;
  private nextStreamRequestId = 1;
  private readonly observer: Pick<A2aCallObserver, 'call' | 'stream'>;

  constructor(private readonly options: SdkA2aGatewayOptions) {
    this.baseUrl = withTrailingSlash(options.url);
    this.observer = options.observer ?? UNOBSERVED;
    this.upstreamFetch = createUpstreamFetch(options.token, {
      idleMs: options.idleMs ?? DEFAULT_IDLE_MS,
      callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    });
    this.resolver = new PinnedAgentCardResolver(
      this.upstreamFetch.fetch,
      options.cardTimeoutMs ?? DEFAULT_CARD_TIMEOUT_MS,
    );
    this.factory = new ClientFactory({
      // Every unary JSON-RPC call: a non-2xx answer fails as UpstreamHttpError (the streams check it themselves).
      transports: [new JsonRpcTransportFactory({ fetchImpl: failingOnHttpErrors(this.upstreamFetch.fetch) })],
      preferredTransports: ['JSONRPC'],
      cardResolver: this.resolver,
      clientConfig: { acceptedOutputModes: ACCEPTED_OUTPUT_MODES },
    });
  }

  async *sendStreamingMessage(message: A2aOutgoingMessage, signal: AbortSignal): AsyncIterable<A2aFrame> {
    signal.throwIfAborted();
    const kernel = await untilAborted(this.kernel(), signal);
    const request = SendMessageRequest.fromJSON({
      message,
      configuration: { acceptedOutputModes: ACCEPTED_OUTPUT_MODES },
    });
    yield* this.observer.stream('SendStreamingMessage', (serviceParameters) =>
      kernel.streaming
        ? this.stream(
            kernel,
            'SendStreamingMessage',
            SendMessageRequest.toJSON(withTenant(request, kernel)),
            {
              serviceParameters,
              signal,
            },
          )
        : toFrames(kernel.client.sendMessageStream(request, { signal, serviceParameters }), signal),
    );
  }

  async *subscribeToTask(taskId: string, signal: AbortSignal): AsyncIterable<A2aFrame> {
    signal.throwIfAborted();
    const kernel = await untilAborted(this.kernel(), signal);
    const params = SubscribeToTaskRequest.toJSON(
      withTenant(SubscribeToTaskRequest.fromJSON({ id: taskId }), kernel),
    );
    yield* this.observer.stream('SubscribeToTask', (serviceParameters) =>
      this.stream(kernel, 'SubscribeToTask', params, { serviceParameters, signal }),
    );
  }

  /**
   * Bounded because an SDK server can block CancelTask until the executor publishes a terminal event
   * (docs/behaviour/a2a.md#sdk-notes). Every failure becomes A2A_UNAVAILABLE, which the cancel route renders as 502
   * (docs/architecture.md#decisions).
   */
  async cancelTask(taskId: string): Promise<void> {
    const signal = AbortSignal.timeout(this.options.cancelTimeoutMs);
    try {
      const { client } = await untilAborted(this.kernel(), signal);
      await this.observer.call('CancelTask', (serviceParameters) =>
        client.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }), { signal, serviceParameters }),
      );
    } catch (error) {
      this.logger.error(`CancelTask failed taskId=${taskId} code=${ErrorCode.A2A_UNAVAILABLE}`);
      throw new AguiError(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable', { cause: error });
    }
  }

  async getTask(
    taskId: string,
    historyLength = DEFAULT_HISTORY_LENGTH,
    signal?: AbortSignal,
  ): Promise<A2aFrame> {
    const { client } = await this.kernel();
    const task = await this.observer.call('GetTask', (serviceParameters) =>
      client.getTask(GetTaskRequest.fromJSON({ id: taskId, historyLength }), { signal, serviceParameters }),
    );
    return { task: Task.toJSON(task) };
  }

  async sendMessage(message: A2aOutgoingMessage): Promise<A2aFrame> {
    const { client } = await this.kernel();
    const request = SendMessageRequest.fromJSON({
      message,
      configuration: { acceptedOutputModes: ACCEPTED_OUTPUT_MODES },
    });
    const result = await this.observer.call('SendMessage', (serviceParameters) =>
      client.sendMessage(request, { serviceParameters }),
    );
    return 'status' in result ? { task: Task.toJSON(result) } : { message: Message.toJSON(result) };
  }

  async ensureSessionRestored(
    request: { cwd: string; sessionId: string; taskId: string },
    signal?: AbortSignal,
  ): Promise<boolean> {
    const response = await this.upstreamFetch.fetch(`${this.baseUrl}iac-code/session/ensure-restored`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal,
    });
    if (response.status === 404) return false;
    const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (isSessionBackupNotReady(body)) {
      throw new AguiError(ErrorCode.SESSION_BACKUP_NOT_READY, 'sessionBackupNotReady');
    }
    if (response.ok && (body?.status === 'current' || body?.status === 'restored')) return true;
    throw new Error(`ensure-restored answered HTTP ${response.status}`);
  }

  async getPipelineState(
    taskId: string,
    afterSequence: number,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown> | undefined> {
    const query = new URLSearchParams({ taskId, afterSequence: String(afterSequence) });
    const response = await this.upstreamFetch.fetch(`${this.baseUrl}iac-code/pipeline/state?${query}`, {
      signal,
    });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`pipeline state answered HTTP ${response.status}`);
    const body: unknown = await response.json();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new Error('pipeline state is not a JSON object');
    }
    return body as Record<string, unknown>;
  }

  async checkReady(): Promise<void> {
    await this.resolver.resolve(this.baseUrl);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.upstreamFetch.close();
  }

  private stream(
    kernel: KernelClient,
    method: JsonRpcStreamCall['method'],
    params: unknown,
    options: { serviceParameters: Record<string, string>; signal: AbortSignal },
  ): AsyncIterable<A2aFrame> {
    const id = this.nextStreamRequestId++;
    return streamJsonRpc(this.upstreamFetch.openStream, {
      endpoint: kernel.endpoint,
      method,
      params,
      id,
      ...options,
    });
  }

  /**
   * Created on first use, and again after a failure: a managed or external kernel may come up later.
   * The same as the SDK's `createFromUrl`, keeping the card for the streaming calls.
   */
  private kernel(): Promise<KernelClient> {
    this.kernelPromise ??= this.resolver
      .resolve(this.baseUrl)
      .then(async (card) => kernelClientOf(card, await this.factory.createFromAgentCard(card)))
      .catch((error: unknown) => {
        this.kernelPromise = undefined;
        throw error;
      });
    return this.kernelPromise;
  }
}

function kernelClientOf(card: AgentCard, client: Client): KernelClient {
  // The resolver pins exactly one JSON-RPC interface, which the factory then selects.
  const [jsonRpc] = card.supportedInterfaces;
  return {
    client,
    endpoint: jsonRpc.url,
    tenant: jsonRpc.tenant,
    streaming: card.capabilities?.streaming === true,
  };
}

/** The SDK's TenantTransportDecorator: a non-empty interface tenant fills an empty request tenant. */
export function withTenant<T extends { tenant: string }>(
  request: T,
  kernel: Pick<KernelClient, 'tenant'>,
): T {
  return kernel.tenant ? { ...request, tenant: request.tenant || kernel.tenant } : request;
}

/**
 * SDK stream items as wire JSON, for a card without the streaming capability. The SDK cancels the response
 * body when this generator is returned or the signal aborts (docs/behaviour/a2a.md#sdk-notes), so an
 * abandoned run does not hold the connection.
 * Frames already buffered when the signal aborts are not handed out: an aborted run must see no more.
 */
async function* toFrames(items: AsyncIterable<StreamResponse>, signal: AbortSignal): AsyncIterable<A2aFrame> {
  for await (const item of items) {
    signal.throwIfAborted();
    yield StreamResponse.toJSON(item) as A2aFrame;
  }
}

/** Rejects with the signal's reason as soon as it aborts, without waiting for `promise`. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
