import { EventType, type BaseEvent } from '@ag-ui/core';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { contextIdForThread } from '../../src/threads/thread-context-id';
import { threadFileStem } from '../../src/threads/thread-file-name';
import type { ThreadState } from '../../src/threads/thread-state';
import { expectConformantEvents } from './agui-conformance';
import { runInput } from './run-input';
import { postRun } from './sse-client';
import type { KernelUpstream } from './start-kernel-upstream';
import type { Json } from './interrupt-helpers';

/**
 * Helpers shared by the Pipeline integration specs (`test/integration/pipeline-*.int-spec.ts`): one run
 * through a real gateway with its conformance check, the step balance of the
 * thread file on disk, and what the kernel-like upstream received for one task.
 */

export const KERNEL_TOKEN = 'pipeline-kernel-token';

/** The gateway environment against `upstream`; restart tests pass the same `stateDir` twice. */
export function pipelineGatewayEnv(upstream: KernelUpstream, stateDir: string): Record<string, string> {
  return {
    IAC_CODE_AGUI_A2A_URL: upstream.url,
    IAC_CODE_AGUI_A2A_TOKEN: KERNEL_TOKEN,
    IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    IAC_CODE_AGUI_STATE_DIR: stateDir,
    IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS: '2',
  };
}

/** A Pipeline-mode turn (`runMode: "pipeline"`) whose first word picks the upstream script. */
export function pipelineTurn(threadId: string, text: string, runId = 'run-1') {
  return runInput({ threadId, runId, text, iacCode: { runMode: 'pipeline' } });
}

/** The resume of docs/behaviour/interrupts.md#from-input-required-to-interrupts's worked example: `messages` empty, one answer per interrupt. */
export function pipelineResume(
  threadId: string,
  runId: string,
  answers: readonly { interruptId: string; payload: unknown; status?: 'resolved' | 'cancelled' }[],
) {
  return runInput({
    threadId,
    runId,
    iacCode: { runMode: 'pipeline' },
    extra: {
      messages: [],
      resume: answers.map((answer) => ({
        interruptId: answer.interruptId,
        status: answer.status ?? 'resolved',
        payload: answer.payload,
      })),
    },
  });
}

/** POSTs one run, checks HTTP 200 and AG-UI conformance, and returns its events. */
export async function runThrough(gatewayUrl: string, body: unknown): Promise<BaseEvent[]> {
  const response = await postRun(gatewayUrl, body);
  if (response.status !== 200) throw new Error(`run answered HTTP ${response.status}: ${response.text}`);
  await expectConformantEvents(response.events);
  return response.events;
}

/**
 * : inside one run every STEP_STARTED has its STEP_FINISHED (by name, in nesting
 * order) and no step is open at the terminal event. Returns the problems found; [] when balanced.
 */
export function stepBalanceProblems(events: readonly BaseEvent[]): string[] {
  const open: string[] = [];
  const problems: string[] = [];
  for (const event of events) {
    const name = (event as { stepName?: string }).stepName ?? '';
    if (event.type === EventType.STEP_STARTED) {
      if (open.includes(name)) problems.push(`${name} started twice`);
      open.push(name);
    } else if (event.type === EventType.STEP_FINISHED) {
      const index = open.lastIndexOf(name);
      if (index < 0) problems.push(`${name} finished without being started`);
      else open.splice(index, 1);
    } else if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) {
      for (const name of open) problems.push(`${name} still open at ${event.type}`);
      open.length = 0;
    }
  }
  return problems;
}

/** The names of the events of one type, in order (STEP_* names, CUSTOM names…). */
export function namesOf(events: readonly BaseEvent[], type: EventType): string[] {
  return events
    .filter((event) => event.type === type)
    .map((event) => String((event as { stepName?: string; name?: string }).stepName ?? (event as Json).name));
}

/** Concatenated TEXT_MESSAGE_CONTENT deltas of a run. */
export function textOf(events: readonly BaseEvent[]): string {
  return events
    .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => (event as Json).delta as string)
    .join('');
}

export interface RunEnd {
  readonly type: string;
  readonly outcome?: Json;
  readonly code?: string;
}

export function lastOf(events: readonly BaseEvent[]): RunEnd {
  return events[events.length - 1] as unknown as RunEnd;
}

/** The interrupt ids of a RUN_FINISHED(interrupt); [] for any other end. */
export function interruptIdsOf(events: readonly BaseEvent[]): string[] {
  const outcome = lastOf(events).outcome;
  return outcome?.type === 'interrupt' ? (outcome.interrupts as Json[]).map((entry) => entry.id) : [];
}

/** The task id the run announced in `iac-code.session.v1` (docs/behaviour/events.md#session-event). */
export function taskIdOf(events: readonly BaseEvent[]): string {
  const session = events.find(
    (event) => event.type === EventType.CUSTOM && (event as Json).name === 'iac-code.session.v1',
  ) as Json | undefined;
  if (!session) throw new Error('the run announced no iac-code.session.v1 event');
  return session.value.taskId as string;
}

/** The thread's state file as the gateway wrote it (`<stateDir>/threads/<stem>.json`). */
export function readThreadFile(stateDir: string, threadId: string): ThreadState {
  const file = path.join(stateDir, 'threads', `${threadFileStem(threadId)}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as ThreadState;
}

export interface UpstreamCall {
  readonly method: string;
  readonly params: Json;
}

/**
 * The JSON-RPC calls the upstream received about one task, oldest first: messages whose `taskId` is
 * the task, calls whose `params.id` is it, and, given the thread, the message that created the task
 * (no `taskId` yet, the thread's context id), plus the `GET /iac-code/pipeline/state` recovery calls for
 * the task as method `pipeline-state`.
 */
export async function callsFor(
  upstream: KernelUpstream,
  taskId: string,
  threadId?: string,
): Promise<UpstreamCall[]> {
  const contextId = threadId === undefined ? undefined : contextIdForThread(threadId);
  const calls: UpstreamCall[] = [];
  for (const entry of await upstream.requests()) {
    const params = ((entry.body as Json | undefined)?.params ?? {}) as Json;
    if (entry.path.startsWith('/iac-code/pipeline/state')) {
      const query = new URL(entry.path, 'http://x').searchParams;
      if (query.get('taskId') === taskId)
        calls.push({ method: 'pipeline-state', params: Object.fromEntries(query) });
      continue;
    }
    if (!entry.rpcMethod) continue;
    const isTask = params.id === taskId || params.message?.taskId === taskId;
    const isOpening =
      contextId !== undefined &&
      params.message?.taskId === undefined &&
      params.message?.contextId === contextId;
    if (isTask || isOpening) calls.push({ method: entry.rpcMethod, params });
  }
  return calls;
}

/** How many calls of each method, e.g. `{SendStreamingMessage: 1, GetTask: 3}`. */
export function countByMethod(calls: readonly UpstreamCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls) counts[call.method] = (counts[call.method] ?? 0) + 1;
  return counts;
}

/** The task's state as the upstream reports it now (a direct GetTask; it is journaled like any call). */
export async function upstreamTaskState(upstream: KernelUpstream, taskId: string): Promise<string> {
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'A2A-Version': '1.0',
      Authorization: `Bearer ${KERNEL_TOKEN}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'check', method: 'GetTask', params: { id: taskId } }),
  });
  const body = (await response.json()) as Json;
  return String(body.result?.status?.state ?? `error ${JSON.stringify(body.error)}`);
}
