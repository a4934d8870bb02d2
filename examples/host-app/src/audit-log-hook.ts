import { appendFile } from 'node:fs/promises';
import type { RunEventHook, RunHookContext, RunOutcomeReport } from 'agui-a2a-gateway';

/** One line of the audit log: a run, who ran it, and how it ended. */
export interface AuditLine {
  readonly threadId: string;
  readonly runId: string;
  readonly executionId: string;
  readonly face: string;
  readonly principal: string | null;
  readonly outcome: RunOutcomeReport['outcome'];
  readonly errorCode?: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly events: number;
}

/**
 * Appends one JSON line per run outcome to a file (billing or compliance would read it). The gateway does
 * not wait for the write and only logs its failure, so a full disk never breaks a user's stream.
 */
export class AuditLogHook implements RunEventHook {
  constructor(private readonly filePath: string) {}

  onRunEnd(report: RunOutcomeReport, run: RunHookContext): Promise<void> {
    const line: AuditLine = {
      threadId: run.threadId,
      runId: run.runId,
      executionId: run.executionId,
      face: run.face,
      principal: run.principal ?? null,
      outcome: report.outcome,
      ...(report.errorCode !== undefined ? { errorCode: report.errorCode } : {}),
      startedAt: new Date(run.startedAtMs).toISOString(),
      endedAt: new Date(report.endedAtMs).toISOString(),
      events: report.eventCount,
    };
    return appendFile(this.filePath, `${JSON.stringify(line)}\n`, 'utf8');
  }
}
