import {
  EventType,
  type CustomEvent,
  type Interrupt,
  type RunErrorEvent,
  type RunFinishedEvent,
  type RunStartedEvent,
  type TokenUsage,
} from '@ag-ui/core';
import type { RunIdentity } from './run-identity';
import { ifDefined } from '../wire/wire-value';
import { runErrorEvent } from '../common/run-error-event';

export const SESSION_EVENT_NAME = 'iac-code.session.v1';

/** The adapter ↔ A2A binding announced once per run (docs/behaviour/events.md#session-event). `schemaVersion` is always 1. */
export interface SessionEventValue {
  readonly schemaVersion?: 1;
  readonly threadId: string;
  readonly aguiRunId: string;
  readonly executionId: string;
  readonly contextId: string;
  readonly taskId: string | null;
  readonly rosInvocationId: string;
  readonly sessionId: string | null;
}

/** RUN_STARTED without `input` (docs/behaviour/events.md#usage); `parentRunId` only when the request had one. */
export function runStarted(run: RunIdentity, parentRunId: string | undefined, now: number): RunStartedEvent {
  return {
    type: EventType.RUN_STARTED,
    threadId: run.threadId,
    runId: run.runId,
    ...ifDefined('parentRunId', parentRunId),
    timestamp: now,
  };
}

/**
 * RUN_FINISHED: `{type: "success"}` by default, or ending at human input with every pending interrupt (at
 * least one, docs/behaviour/interrupts.md#from-input-required-to-interrupts).
 */
export function runFinished(
  run: RunIdentity,
  usage: TokenUsage[] | undefined,
  now: number,
  outcome: RunFinishedEvent['outcome'] = { type: 'success' },
): RunFinishedEvent {
  return {
    type: EventType.RUN_FINISHED,
    threadId: run.threadId,
    runId: run.runId,
    outcome,
    ...ifDefined('usage', usage),
    timestamp: now,
  };
}

/** RUN_FINISHED ending at human input (docs/behaviour/interrupts.md#from-input-required-to-interrupts). */
export function runFinishedWithInterrupts(
  run: RunIdentity,
  interrupts: Interrupt[],
  usage: TokenUsage[] | undefined,
  now: number,
): RunFinishedEvent {
  return runFinished(run, usage, now, { type: 'interrupt', interrupts });
}

/** RUN_ERROR as a run ends with it (the one builder, `runErrorEvent`). */
export function runError(
  code: string,
  message: string,
  usage: TokenUsage[] | undefined,
  now: number,
): RunErrorEvent {
  return runErrorEvent(code, message, now, usage);
}

/** CUSTOM `iac-code.session.v1`; `taskId`/`sessionId` stay as `null` when unknown, inside `value` only. */
export function sessionEvent(value: SessionEventValue, now: number): CustomEvent {
  return {
    type: EventType.CUSTOM,
    name: SESSION_EVENT_NAME,
    value: {
      schemaVersion: 1,
      threadId: value.threadId,
      aguiRunId: value.aguiRunId,
      executionId: value.executionId,
      contextId: value.contextId,
      taskId: value.taskId,
      rosInvocationId: value.rosInvocationId,
      sessionId: value.sessionId,
    },
    timestamp: now,
  };
}
