import type { BaseEvent, Interrupt } from '@ag-ui/core';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { threadFileStem } from '../../src/threads/thread-file-name';
import type { KernelUpstream } from './start-kernel-upstream';
import { runInput } from './run-input';
import { postRun, type PostOptions, type SseResponse } from './sse-client';

/** Arbitrary JSON read back from files and the kernel's journal, navigated freely by assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** The interrupts of a run that ended with RUN_FINISHED(interrupt), else undefined. */
export function interruptsOf(events: BaseEvent[]): Interrupt[] | undefined {
  const last = events.at(-1) as
    (BaseEvent & { outcome?: { type: string; interrupts?: Interrupt[] } }) | undefined;
  return last?.type === 'RUN_FINISHED' && last.outcome?.type === 'interrupt'
    ? last.outcome.interrupts
    : undefined;
}

export const typesOf = (events: BaseEvent[]): string[] => events.map((event) => event.type);

/** A resume request (docs/behaviour/interrupts.md#from-input-required-to-interrupts "Matching resume request body"): same thread, new run, no messages. */
export function resumeInput(
  threadId: string,
  runId: string,
  resume: unknown[],
  iacCode: Record<string, unknown> = {},
) {
  return runInput({ threadId, runId, iacCode, extra: { messages: [], resume } });
}

export function postResume(
  url: string,
  threadId: string,
  runId: string,
  resume: unknown[],
  iacCode: Record<string, unknown> = {},
  options: PostOptions = {},
): Promise<SseResponse> {
  return postRun(url, resumeInput(threadId, runId, resume, iacCode), options);
}

/** The thread's state file as JSON. */
export function readThread(stateDir: string, threadId: string): Json {
  return JSON.parse(readFileSync(path.join(stateDir, 'threads', `${threadFileStem(threadId)}.json`), 'utf8'));
}

/** The JSON-RPC params of every request of one method the kernel received, oldest first. */
export async function paramsOf(upstream: KernelUpstream, method: string): Promise<Json[]> {
  return (await upstream.requests())
    .filter((entry) => entry.rpcMethod === method)
    .map((entry) => (entry.body as { params: Json }).params);
}

/** Every message the kernel received on SendStreamingMessage and SendMessage for one task. */
export async function answersTo(upstream: KernelUpstream, taskId: string): Promise<Json[]> {
  const sent = [
    ...(await paramsOf(upstream, 'SendStreamingMessage')),
    ...(await paramsOf(upstream, 'SendMessage')),
  ];
  return sent.map((params) => params.message).filter((message) => message.taskId === taskId);
}

/** The value of a run's `iac-code.session.v1` event: the ids a resume and the cancel extension need. */
export interface SessionValue {
  executionId: string;
  contextId: string;
  taskId: string;
  sessionId: string;
}

export function sessionOf(events: BaseEvent[]): SessionValue {
  const session = events.find((e) => (e as { name?: string }).name === 'iac-code.session.v1');
  if (!session) throw new Error(`no session event: ${typesOf(events).join(',')}`);
  return (session as unknown as { value: SessionValue }).value;
}
