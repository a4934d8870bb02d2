/**
 * The bench upstream: a kernel-like A2A 1.0 JSON-RPC server (docs/behaviour/a2a.md#the-kernels-own-behaviour) that streams pre-encoded
 * frames from memory, so it costs little per delta and its rate is known. Process entry:
 * `node --import tsx bench/upstream/bench-upstream.ts`; prints `BENCH_UPSTREAM_READY <url>`.
 * Not a test double for behaviour (that is test/support/kernel-upstream): no SDK task store, no pings
 * (every scenario holds a stream for less than the kernel's 15 s ping interval).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AgentCard } from '@a2a-js/sdk';
import { buildKernelAgentCard } from '../../src/demo-kernel/kernel-agent-card';
import { KERNEL_SSE_HEADERS } from '../../src/demo-kernel/kernel-sse-frames';
import { drainedOrClosed } from '../../src/runs/run-flow-control';
import { UPSTREAM_READY, UPSTREAM_STATS_PATH } from '../support/ready-lines';
import { sharedNowUs } from '../support/shared-clock';
import { BURST_FRAMES_PER_WRITE, FrameTemplates } from './frame-templates';
import { parseUpstreamPlan, type UpstreamPlan } from './upstream-plan';

interface RpcRequest {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: { message?: { contextId?: unknown; parts?: { text?: unknown }[] }; id?: unknown };
}

const knownTasks = new Map<string, string>();
const openStreams = new Map<string, { response: ServerResponse; frames: FrameTemplates }>();
const stats = { streams: 0, cancels: 0 };
let taskCounter = 0;
let cardJson = '';

function sendJson(response: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function rpcError(response: ServerResponse, id: unknown, code: number, message: string): void {
  sendJson(response, { jsonrpc: '2.0', id, error: { code, message } });
}

async function writeBurst(response: ServerResponse, frames: FrameTemplates, deltas: number): Promise<void> {
  let remaining = deltas;
  for (; remaining >= BURST_FRAMES_PER_WRITE; remaining -= BURST_FRAMES_PER_WRITE) {
    if (response.destroyed) return;
    if (!response.write(frames.burstChunk)) await drainedOrClosed(response, response);
  }
  for (; remaining > 0; remaining--) response.write(frames.burstDelta);
  if (!response.destroyed) response.end(frames.closing);
}

/** One delta every `intervalMs` of a drift-free schedule; each stamped with its write and schedule time. */
function writePaced(
  response: ServerResponse,
  frames: FrameTemplates,
  intervalMs: number,
  deltas: number,
): void {
  const startMs = performance.now();
  const toSharedUs = (monotonicMs: number) => Math.round((performance.timeOrigin + monotonicMs) * 1000);
  let index = 1;
  const tick = () => {
    if (response.destroyed) return;
    const scheduledMs = startMs + index * intervalMs;
    response.write(frames.pacedDelta(sharedNowUs(), toSharedUs(scheduledMs)));
    if (index === deltas) return void response.end(frames.closing);
    index += 1;
    setTimeout(tick, Math.max(0, startMs + index * intervalMs - performance.now()));
  };
  setTimeout(tick, intervalMs);
}

function stream(response: ServerResponse, rpc: RpcRequest, plan: UpstreamPlan): void {
  taskCounter += 1;
  const taskId = `bench-task-${process.pid}-${taskCounter}`;
  const contextId =
    typeof rpc.params?.message?.contextId === 'string' ? rpc.params.message.contextId : `ctx-${taskCounter}`;
  const frames = new FrameTemplates({ requestId: rpc.id ?? null, taskId, contextId });
  knownTasks.set(taskId, contextId);
  openStreams.set(taskId, { response, frames });
  stats.streams += 1;
  response.on('close', () => openStreams.delete(taskId));
  response.writeHead(200, KERNEL_SSE_HEADERS);
  response.socket?.setNoDelay(true);
  response.write(frames.opening);
  if (plan.kind === 'burst') void writeBurst(response, frames, plan.deltas);
  else if (plan.kind === 'paced') writePaced(response, frames, plan.intervalMs, plan.deltas);
}

/** CancelTask answers the task object itself (docs/behaviour/a2a.md#the-kernels-own-behaviour). */
function cancel(response: ServerResponse, rpc: RpcRequest): void {
  const taskId = typeof rpc.params?.id === 'string' ? rpc.params.id : '';
  const contextId = knownTasks.get(taskId);
  if (contextId === undefined) return rpcError(response, rpc.id ?? null, -32001, 'Task not found');
  stats.cancels += 1;
  const open = openStreams.get(taskId);
  if (open && !open.response.destroyed) open.response.end(open.frames.cancelled);
  sendJson(response, {
    jsonrpc: '2.0',
    id: rpc.id ?? null,
    result: { id: taskId, contextId, status: { state: 'TASK_STATE_CANCELED' } },
  });
}

function handleRpc(request: IncomingMessage, response: ServerResponse, body: string): void {
  let rpc: RpcRequest;
  try {
    rpc = JSON.parse(body) as RpcRequest;
  } catch {
    return rpcError(response, null, -32700, 'Parse error');
  }
  // The kernel's version gate (docs/behaviour/a2a.md#the-kernels-own-behaviour): no `A2A-Version: 1.0` means a 0.3 client.
  if (request.headers['a2a-version'] !== '1.0') return rpcError(response, rpc.id ?? null, -32009, 'Version');
  if (rpc.method === 'CancelTask') return cancel(response, rpc);
  if (rpc.method !== 'SendStreamingMessage') return rpcError(response, rpc.id ?? null, -32601, 'Method');
  const text = rpc.params?.message?.parts?.find((part) => typeof part.text === 'string')?.text;
  const plan = parseUpstreamPlan(typeof text === 'string' ? text : '');
  if (!plan) return rpcError(response, rpc.id ?? null, -32602, `no bench plan in ${JSON.stringify(text)}`);
  stream(response, rpc, plan);
}

const server = createServer({ noDelay: true, keepAliveTimeout: 60_000 }, (request, response) => {
  if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    return void response.end(cardJson);
  }
  if (request.method === 'GET' && request.url === UPSTREAM_STATS_PATH) {
    return sendJson(response, { ...stats, openStreams: openStreams.size });
  }
  if (request.method !== 'POST') {
    response.writeHead(404);
    return void response.end();
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => handleRpc(request, response, Buffer.concat(chunks).toString('utf8')));
});
server.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  cardJson = JSON.stringify(AgentCard.toJSON(buildKernelAgentCard(url)));
  process.stdout.write(`${UPSTREAM_READY} ${url}\n`);
});
process.on('SIGTERM', () => process.exit(0));
