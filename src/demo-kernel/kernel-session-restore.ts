/**
 * `POST /iac-code/session/ensure-restored` of the kernel (docs/behaviour/a2a.md#the-kernels-own-behaviour; reference
 * docs/behaviour/a2a.md#transport, docs/behaviour/interrupts.md#resume-preparation step 2): `{"status":"current"|"restored"}` for a task it knows, 404 when it cannot restore
 * (or does not support restoring), 409 `SESSION_BACKUP_NOT_READY` while a backup is syncing.
 */

/**
 * `current`/`restored`: answer that status for known tasks; `not-ready-once`: one 409, then `current`;
 * `not-ready`: always 409; `unsupported`: always 404, as a kernel without the route.
 */
export const ENSURE_RESTORED_MODES = [
  'current',
  'restored',
  'not-ready-once',
  'not-ready',
  'unsupported',
] as const;
export type EnsureRestoredMode = (typeof ENSURE_RESTORED_MODES)[number];

export interface KernelRouteAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** The kernel's 409 body; the gateway forwards its message (docs/behaviour/interrupts.md#resume-preparation step 2, docs/behaviour/http.md#languages). */
export const SESSION_BACKUP_NOT_READY_BODY = {
  error: {
    code: 'SESSION_BACKUP_NOT_READY',
    retryable: true,
    message: 'Session backup is still synchronizing. Retry after 3 seconds.',
  },
} as const;

/** A message with this word (after the script keyword) makes the task's first restore answer 409. */
export const BACKUP_NOT_READY_FLAG = 'backup-not-ready';

export function isEnsureRestoredMode(value: unknown): value is EnsureRestoredMode {
  return typeof value === 'string' && (ENSURE_RESTORED_MODES as readonly string[]).includes(value);
}

interface KnownTask {
  readonly sessionId: string;
  isBackupPending: boolean;
}

export class KernelSessionRestore {
  private mode: EnsureRestoredMode = 'current';
  private readonly tasks = new Map<string, KnownTask>();

  setMode(mode: EnsureRestoredMode): void {
    this.mode = mode;
  }

  /** A new task and its session; `isBackupPending` makes the first restore of it answer 409. */
  remember(taskId: string, sessionId: string, isBackupPending: boolean): void {
    this.tasks.set(taskId, { sessionId, isBackupPending });
  }

  answer(body: unknown): KernelRouteAnswer {
    if (this.mode === 'unsupported') return { status: 404, body: { detail: 'Not Found' } };
    const request = body as { cwd?: unknown; sessionId?: unknown; taskId?: unknown } | null | undefined;
    if (![request?.cwd, request?.sessionId, request?.taskId].every(isNonEmptyString)) {
      return {
        status: 400,
        body: { error: { code: 'INVALID_REQUEST', message: 'cwd, sessionId and taskId are required.' } },
      };
    }
    const task = this.tasks.get(request!.taskId as string);
    if (this.mode === 'not-ready' || this.mode === 'not-ready-once' || task?.isBackupPending) {
      if (this.mode === 'not-ready-once') this.mode = 'current';
      else if (task?.isBackupPending) task.isBackupPending = false;
      return { status: 409, body: SESSION_BACKUP_NOT_READY_BODY };
    }
    if (!task || task.sessionId !== request!.sessionId) {
      return {
        status: 404,
        body: {
          error: { code: 'SESSION_NOT_FOUND', retryable: false, message: 'No such iac-code session.' },
        },
      };
    }
    return { status: 200, body: { status: this.mode === 'restored' ? 'restored' : 'current' } };
  }
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}
