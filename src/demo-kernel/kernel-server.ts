import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { SystemClock } from '../common/clock';
import { httpUrl } from '../common/http-url';
import { buildKernelAgentCard } from './kernel-agent-card';
import type { KernelFaultInjector } from './faults/kernel-fault-injector';
import { toKernelRequestLogEntry, type KernelRequestLogEntry } from './kernel-request-log-entry';
import { KernelRpcEndpoint } from './kernel-rpc-endpoint';
import type { KernelScriptBook } from './kernel-script';
import { KERNEL_SCRIPT_BOOK } from './kernel-scripts';
import type { KernelSessionRestore } from './kernel-session-restore';
import type { KernelHolds } from './kernel-holds';
import { createKernelSharedState } from './kernel-shared-state';
import { writeJson } from './kernel-sse-writer';
import type { PipelineJournal } from './pipeline-journal';
import { answerPipelineState } from './pipeline-state-route';
import { KernelTaskHistory } from './kernel-task-history';
import { RecentTaskStore } from './recent-task-store';
import { ScriptedKernelExecutor } from './scripted-kernel-executor';

/** Answers one extra route; `body` is the request body already read (POST), else undefined. */
export type KernelRouteHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  body: string | undefined,
) => void | Promise<void>;

export interface KernelServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 (the default) = an ephemeral port. */
  readonly port?: number;
  /** When set, every route (`/health` included) needs `Authorization: Bearer <token>`. */
  readonly token?: string;
  readonly scripts?: KernelScriptBook;
  /** Silence before a `: ping` comment; default 15000, the kernel's. */
  readonly pingIntervalMs?: number;
  /** Called once per request, after authentication and reading the body. */
  readonly onRequest?: (entry: KernelRequestLogEntry) => void;
  /** Extra routes keyed `"<METHOD> <path>"` (e.g. `"GET /__test/requests"`); they win over the built-in ones. */
  readonly routes?: Readonly<Record<string, KernelRouteHandler>>;
  /** Faults a test process arms for coming JSON-RPC calls (the test entry's `/__test/faults`). */
  readonly faults?: KernelFaultInjector;
  /** The session-restore answers, when a test process switches their mode. */
  readonly sessions?: KernelSessionRestore;
  /** Holds a test process arms and releases (the test entry's `/__test/holds`). */
  readonly holds?: KernelHolds;
  /** The Pipeline envelopes the scripts publish, when a test process waits on them (`/__test/pipeline-reached`). */
  readonly pipelines?: PipelineJournal;
  /**
   * Keep only the most recently saved tasks, up to twice this many (RecentTaskStore); default
   * DEFAULT_MAX_TASKS. The SDK's own store keeps every task for ever: the demo service would grow with each run.
   */
  readonly maxTasks?: number;
  /** And up to about twice this much of their content; default DEFAULT_MAX_TASK_BYTES. */
  readonly maxTaskBytes?: number;
}

/** Far more than a demo or test session keeps open or parked; with the bytes, bounds the demo service's memory. */
export const DEFAULT_MAX_TASKS = 1000;
/** Hundreds of ordinary turns, a few hostile multi-megabyte ones. */
export const DEFAULT_MAX_TASK_BYTES = 8 * 1024 * 1024;

export interface KernelServer {
  /** Base URL ending with '/'. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A plain-Node stand-in for the iac-code A2A kernel that behaves like it on the wire (docs/behaviour/a2a.md#the-kernels-own-behaviour):
 * the SDK's server core for task bookkeeping, the kernel's CRLF SSE framing and pings, its version
 * gate and bearer auth, and the routes the gateway calls.
 */
export async function startKernelServer(options: KernelServerOptions = {}): Promise<KernelServer> {
  const clock = new SystemClock();
  const token = options.token || undefined;
  const card = buildKernelAgentCard('http://127.0.0.1/');
  const state = createKernelSharedState(options.sessions, options.holds, options.pipelines);
  const executor = new ScriptedKernelExecutor(options.scripts ?? KERNEL_SCRIPT_BOOK, clock, state);
  const rpc = new KernelRpcEndpoint({
    card,
    requestHandler: new DefaultRequestHandler(
      card,
      new KernelTaskHistory(
        new RecentTaskStore({
          tasks: options.maxTasks ?? DEFAULT_MAX_TASKS,
          bytes: options.maxTaskBytes ?? DEFAULT_MAX_TASK_BYTES,
        }),
      ),
      executor,
    ),
    scripts: options.scripts ?? KERNEL_SCRIPT_BOOK,
    pingIntervalMs: options.pingIntervalMs ?? 15_000,
    clock,
    inputs: state.inputs,
    guidance: state.guidance,
    faults: options.faults,
  });
  const openResponses = new Set<ServerResponse>();

  const route = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const isAuthorized = token === undefined || hasBearer(request, token);
    const body = isAuthorized && request.method === 'POST' ? await readBody(request) : undefined;
    options.onRequest?.(toKernelRequestLogEntry(request, body));
    if (!isAuthorized) return writeJson(response, 401, { error: 'Unauthorized' });
    const url = new URL(request.url ?? '/', 'http://kernel.invalid');
    const key = `${request.method ?? 'GET'} ${url.pathname}`;
    const extra = options.routes?.[key];
    if (extra) return extra(request, response, body);
    switch (key) {
      case 'POST /':
        return rpc.handle(request, body ?? '', response);
      case 'GET /health':
        return writeJson(response, 200, { status: 'ok' });
      case 'GET /.well-known/agent-card.json':
        return writeJson(response, 200, AgentCard.toJSON(card));
      // The kernel's extension routes (docs/behaviour/a2a.md#the-kernels-own-behaviour; docs/behaviour/a2a.md#transport).
      case 'GET /iac-code/pipeline/state':
        return writeAnswer(response, answerPipelineState(state.pipelines, url.searchParams));
      case 'POST /iac-code/session/ensure-restored':
        return writeAnswer(response, state.sessions.answer(parseOrUndefined(body)));
      default:
        return writeJson(response, 404, { detail: 'Not Found' });
    }
  };

  const server = createServer((request, response) => {
    openResponses.add(response);
    response.once('close', () => openResponses.delete(response));
    route(request, response).catch(() => {
      if (!response.headersSent) writeJson(response, 500, { detail: 'Internal Server Error' });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const url = baseUrlOf(server.address() as AddressInfo);
  // The handler holds this card object: setting the interface URL after listen reaches it too.
  card.supportedInterfaces[0].url = url;

  return {
    url,
    close: async () => {
      executor.dispose();
      // An open SSE stream ends cleanly; a request still waiting (hang-cancel) has its socket cut.
      for (const response of openResponses) {
        if (response.headersSent) response.end();
        else response.destroy();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function writeAnswer(response: ServerResponse, answer: { status: number; body: unknown }): void {
  writeJson(response, answer.status, answer.body);
}

function parseOrUndefined(body: string | undefined): unknown {
  try {
    return JSON.parse(body ?? '') as unknown;
  } catch {
    return undefined;
  }
}

function hasBearer(request: IncomingMessage, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '', 'utf8');
  const expected = Buffer.from(`Bearer ${token}`, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function baseUrlOf(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return httpUrl(host, address.port);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
