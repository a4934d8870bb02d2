import { fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import { UpstreamHttpError } from '../a2a/upstream-error';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { LeaseLostError } from '../threads/thread-coordination';
import { streamEndFailure, taskStateFailure, upstreamFailure, type FailurePhase } from './upstream-failure';

/** A JSON-RPC error frame as the stream reader rebuilds it. */
const rpcError = (error: { code: number; message: string; data?: unknown }) =>
  fromJsonRpcErrorResponse({ jsonrpc: '2.0', id: 1, error } as Parameters<
    typeof fromJsonRpcErrorResponse
  >[0]);
const backupNotReady = () =>
  rpcError({ code: -32603, message: 'busy', data: { code: 'SESSION_BACKUP_NOT_READY', retryable: true } });
/** What the gateway wraps some SDK errors in (CancelTask). */
const wrapped = (cause: unknown) => new Error('call failed', { cause });

describe('upstreamFailure: every kernel failure → code, status and message key (docs/behaviour/a2a.md#kernel-failures)', () => {
  it.each<{
    failure: string;
    error: () => unknown;
    phase: FailurePhase;
    code: ErrorCode;
    key: string;
    status: number;
  }>([
    {
      failure: 'transport: connection refused',
      error: () => new TypeError('fetch failed'),
      phase: 'stream',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'transport: socket reset mid-stream',
      error: () => new TypeError('terminated'),
      phase: 'answer',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'deadline: call timeout',
      error: () => new DOMException('timed out', 'TimeoutError'),
      phase: 'stream',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'deadline: idle stream',
      error: () => Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' }),
      phase: 'answer',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'HTTP status',
      error: () => new UpstreamHttpError(503),
      phase: 'stream',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'HTTP status of a sent answer',
      error: () => new UpstreamHttpError(500),
      phase: 'answer',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'JSON-RPC error frame in a stream',
      error: () => rpcError({ code: -32603, message: 'boom' }),
      phase: 'stream',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'JSON-RPC error frame: send rejection',
      error: () => rpcError({ code: -32602, message: 'Invalid params' }),
      phase: 'answer',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'interruptResponseRejected',
      status: 502,
    },
    {
      failure: 'JSON-RPC error frame, wrapped: send rejection',
      error: () => wrapped(rpcError({ code: -32001, message: 'Task not found: t' })),
      phase: 'answer',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'interruptResponseRejected',
      status: 502,
    },
    {
      failure:
        'JSON-RPC task not found (the real kernel: GetTask of an unknown id, SubscribeToTask of an inactive task)',
      error: () =>
        rpcError({
          code: -32001,
          message: 'Task t is not active',
          data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }],
        }),
      phase: 'stream',
      code: ErrorCode.EXECUTION_LOST,
      key: 'taskToResumeUnavailable',
      status: 409,
    },
    {
      failure: 'JSON-RPC task not found, wrapped, in a stream',
      error: () => wrapped(rpcError({ code: -32001, message: 'Task not found: t' })),
      phase: 'stream',
      code: ErrorCode.EXECUTION_LOST,
      key: 'taskToResumeUnavailable',
      status: 409,
    },
    {
      failure: 'another JSON-RPC code is not "task not found"',
      error: () => rpcError({ code: -32002, message: 'Task cannot be canceled' }),
      phase: 'stream',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'JSON-RPC backup not ready in a stream',
      error: backupNotReady,
      phase: 'stream',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
    {
      failure: 'JSON-RPC backup not ready: answer',
      error: backupNotReady,
      phase: 'answer',
      code: ErrorCode.SESSION_BACKUP_NOT_READY,
      key: 'sessionBackupNotReady',
      status: 503,
    },
    {
      failure: 'a refusal already decided keeps its code',
      error: () => new AguiError(ErrorCode.EXECUTION_LOST, 'taskToResumeUnavailable'),
      phase: 'answer',
      code: ErrorCode.EXECUTION_LOST,
      key: 'taskToResumeUnavailable',
      status: 409,
    },
    {
      failure: 'a lost lease (another replica took the thread) keeps its code',
      error: () => new LeaseLostError(),
      phase: 'answer',
      code: ErrorCode.THREAD_TAKEN_OVER,
      key: 'threadTakenOver',
      status: 409,
    },
    {
      failure: 'a lost lease while reading',
      error: () => new LeaseLostError(),
      phase: 'stream',
      code: ErrorCode.THREAD_TAKEN_OVER,
      key: 'threadTakenOver',
      status: 409,
    },
    {
      failure: 'not an error at all',
      error: () => 'odd',
      phase: 'stream',
      code: ErrorCode.A2A_UNAVAILABLE,
      key: 'a2aUnavailable',
      status: 502,
    },
  ])('$failure ($phase) → $code $key', ({ error, phase, code, key, status }) =>
    expect(upstreamFailure(error(), phase)).toEqual({ code, messageKey: key, status }),
  );
});

describe('task states: what a run that read to the end ends with', () => {
  const failed = { code: ErrorCode.A2A_EXECUTION_FAILED, messageKey: 'a2aExecutionFailed', status: 502 };
  const cancelled = { code: ErrorCode.CANCELLED, messageKey: 'executionCancelled', status: 409 };
  it.each([
    { state: 'completed', end: undefined, during: undefined },
    { state: 'input-required', end: undefined, during: undefined },
    { state: 'canceled', end: cancelled, during: cancelled },
    { state: 'cancelled', end: cancelled, during: cancelled },
    { state: 'failed', end: failed, during: failed },
    { state: 'rejected', end: failed, during: failed },
    { state: 'auth-required', end: failed, during: failed },
    { state: 'working', end: failed, during: undefined },
    { state: 'submitted', end: failed, during: undefined },
    { state: undefined, end: failed, during: undefined },
  ])('$state → at the end $end.code, while reading $during.code', ({ state, end, during }) => {
    expect(streamEndFailure(state)).toEqual(end);
    expect(taskStateFailure(state)).toEqual(during);
  });
});
