import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import {
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
  type A2ARequestHandler,
} from '@a2a-js/sdk/server';
import type { Clock } from '../../common/clock';
import type { KernelScriptBook } from './kernel-script';
import { writeJson, writeKernelSse } from './kernel-sse-writer';
import { userTextOf } from './user-text-of';

export interface KernelRpcEndpointOptions {
  readonly card: AgentCard;
  readonly requestHandler: A2ARequestHandler;
  readonly scripts: KernelScriptBook;
  readonly pingIntervalMs: number;
  readonly clock: Clock;
}

const MESSAGE_METHODS = new Set(['SendStreamingMessage', 'SendMessage']);

/**
 * `POST /`: JSON-RPC 2.0 through the SDK's `JsonRpcTransportHandler` (which answers 0.3 method names with
 * -32601 and GetTask/CancelTask with the bare task, as the kernel does), behind the kernel's version gate.
 */
export class KernelRpcEndpoint {
  private readonly transport: JsonRpcTransportHandler;

  constructor(private readonly options: KernelRpcEndpointOptions) {
    this.transport = new JsonRpcTransportHandler(options.requestHandler);
  }

  async handle(request: IncomingMessage, body: string, response: ServerResponse): Promise<void> {
    const rpc = parseJson(body);
    const requestId = (rpc as { id?: unknown } | undefined)?.id ?? null;
    const context = new ServerCallContext({
      requestedExtensions: Extensions.parseServiceParameter(headerOf(request, HTTP_EXTENSION_HEADER)),
      requestedVersion: headerOf(request, A2A_VERSION_HEADER),
      state: new Map([['headers', request.headers]]),
    });
    try {
      // A missing A2A-Version means 0.3, which the kernel refuses with -32009 (a2a-js-sdk.md §3.6).
      validateVersion(context.requestedVersion, this.options.card, 'JSONRPC');
    } catch (error) {
      writeJson(response, 200, {
        jsonrpc: '2.0',
        id: requestId,
        error: JsonRpcTransportHandler.mapToJSONRPCError(error),
      });
      return;
    }
    const preStreamStatus = this.preStreamHttpStatus(rpc);
    if (preStreamStatus !== undefined) {
      writeJson(response, preStreamStatus, {
        jsonrpc: '2.0',
        id: requestId,
        error: { code: -32603, message: 'Internal error' },
      });
      return;
    }
    const answer = await this.transport.handle((rpc as Record<string, unknown> | undefined) ?? body, context);
    if (isAsyncIterable(answer)) {
      await writeKernelSse(response, answer, {
        requestId,
        pingIntervalMs: this.options.pingIntervalMs,
        clock: this.options.clock,
        toJsonRpcError: (error) => JsonRpcTransportHandler.mapToJSONRPCError(error),
      });
    } else {
      writeJson(response, 200, answer);
    }
  }

  /** The `http-500` script answers before any stream, so the script is chosen here, from the request. */
  private preStreamHttpStatus(rpc: unknown): number | undefined {
    const { method, params } = (rpc ?? {}) as { method?: unknown; params?: { message?: unknown } };
    if (typeof method !== 'string' || !MESSAGE_METHODS.has(method)) return undefined;
    return this.options.scripts.select(userTextOf(params?.message)).preStreamHttpStatus;
  }
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
