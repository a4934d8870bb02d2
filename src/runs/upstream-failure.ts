import type { RunErrorEvent, TokenUsage } from '@ag-ui/core';
import { AguiError, isAguiError } from '../common/agui-error';
import { ErrorCode, HTTP_STATUS_BY_CODE } from '../common/error-code';
import {
  isTaskGone,
  isUpstreamBackupNotReady,
  isUpstreamRpcError,
  UpstreamHttpError,
} from '../a2a/upstream-error';
import { runError } from '../events/run-events';
import { CANCELED_STATES } from '../events/run-outcome';
import type { Language, MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';

/**
 * Where the kernel failed a run: `stream` while its events were read (a new turn, a subscription, GetTask),
 * `answer` when it did not take a message the run sent (an interrupt answer, a guidance message).
 */
export type FailurePhase = 'stream' | 'answer';

/** What a failure ends the run with: RUN_ERROR `code` and the message of `messageKey`; `status` before a stream. */
export interface RunFailure {
  readonly code: ErrorCode;
  readonly messageKey: MessageKey;
  readonly status: number;
}

interface FailureRow {
  /** The failure as a reader of logs would name it. */
  readonly failure: string;
  readonly matches: (error: unknown) => boolean;
  readonly stream: readonly [ErrorCode, MessageKey];
  readonly answer: readonly [ErrorCode, MessageKey];
}

const UNAVAILABLE = [ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable'] as const;

/**
 * Every kernel failure → what the run ends with (docs/behaviour/a2a.md#kernel-failures), first match
 * wins. A refusal the gateway already decided (an `AguiError`) keeps its own code and is not in the table.
 * The last row is the fallback: whatever else fails (a connection refused or reset, an idle or call
 * deadline, a malformed frame) means the kernel is unavailable.
 */
export const UPSTREAM_FAILURES: readonly FailureRow[] = [
  {
    failure: 'JSON-RPC error frame: session backup still syncing (data SESSION_BACKUP_NOT_READY, retryable)',
    matches: isUpstreamBackupNotReady,
    stream: UNAVAILABLE,
    answer: [ErrorCode.SESSION_BACKUP_NOT_READY, 'sessionBackupNotReady'],
  },
  {
    // The real kernel's answer to GetTask of an id it does not have and to SubscribeToTask of a task it no
    // longer runs (after a restart): it is up and says what happened, so not "unavailable".
    failure: 'JSON-RPC error frame: task not found (TaskNotFoundError, -32001), the kernel is healthy',
    matches: isTaskGone,
    stream: [ErrorCode.EXECUTION_LOST, 'taskToResumeUnavailable'],
    answer: [ErrorCode.A2A_UNAVAILABLE, 'interruptResponseRejected'],
  },
  {
    failure: 'JSON-RPC error frame (the kernel refused the call, HTTP 200)',
    matches: isUpstreamRpcError,
    stream: UNAVAILABLE,
    answer: [ErrorCode.A2A_UNAVAILABLE, 'interruptResponseRejected'],
  },
  {
    failure: 'HTTP error status (non-2xx answer to a JSON-RPC call)',
    matches: (error) => error instanceof UpstreamHttpError,
    stream: UNAVAILABLE,
    answer: UNAVAILABLE,
  },
  {
    failure: 'transport or deadline (refused, reset, idle or call timeout, malformed stream)',
    matches: () => true,
    stream: UNAVAILABLE,
    answer: UNAVAILABLE,
  },
];

/** The one mapping of a kernel failure to a run's end: an `AguiError` as it is, anything else by the table. */
export function upstreamFailure(error: unknown, phase: FailurePhase): RunFailure {
  if (isAguiError(error)) return failure(error.code, error.messageKey);
  const row = UPSTREAM_FAILURES.find((candidate) => candidate.matches(error)) as FailureRow;
  return failure(...row[phase]);
}

/** `upstreamFailure` as the error a run throws, the kernel's failure kept as its cause. */
export function upstreamRefusal(error: unknown, phase: FailurePhase): AguiError {
  if (isAguiError(error)) return error;
  const { code, messageKey } = upstreamFailure(error, phase);
  return new AguiError(code, messageKey, { cause: error });
}

/** The one RUN_ERROR of a run's end (a turn, a resume, a guidance run): `failure`'s message rendered in the run's language. */
export function runErrorOf(
  failure: Pick<RunFailure, 'code' | 'messageKey'>,
  catalogue: Pick<MessageCatalogue, 'render'>,
  language: Language,
  usage: TokenUsage[] | undefined,
  now: number,
): RunErrorEvent {
  return runError(failure.code, catalogue.render(failure.messageKey, language), usage, now);
}

/**
 * A task state that ends the run with an error (docs/behaviour/events.md#run-lifecycle step 5): failed,
 * rejected and auth-required are an execution failure, canceled a cancellation; undefined for any other.
 */
export function taskStateFailure(state: string | undefined): RunFailure | undefined {
  if (state === undefined) return undefined;
  if (CANCELED_STATES.has(state)) return failure(ErrorCode.CANCELLED, 'executionCancelled');
  if (FAILED_STATES.has(state)) return failure(ErrorCode.A2A_EXECUTION_FAILED, 'a2aExecutionFailed');
  return undefined;
}

/**
 * The run's end after its stream, from the last non-empty state: a completed task or an input-required
 * turn without structured input is a success; a failing state ends as `taskStateFailure` says; a stream
 * that ended while working, or without any state, is an execution failure.
 */
export function streamEndFailure(lastState: string | undefined): RunFailure | undefined {
  if (lastState === 'completed' || lastState === 'input-required') return undefined;
  return taskStateFailure(lastState) ?? failure(ErrorCode.A2A_EXECUTION_FAILED, 'a2aExecutionFailed');
}

const FAILED_STATES: ReadonlySet<string> = new Set(['failed', 'rejected', 'auth-required']);

function failure(code: ErrorCode, messageKey: MessageKey): RunFailure {
  return { code, messageKey, status: HTTP_STATUS_BY_CODE[code] };
}
