import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import { Observable } from 'rxjs';
import { A2A_GATEWAY, type A2aGateway } from '../a2a/a2a-gateway';
import { AguiError } from '../common/agui-error';
import { CLOCK, type Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { contextIdFor } from './input/build-a2a-message';
import { resolveCwd } from './input/resolve-cwd';
import { RunExecution } from './run-execution';
import type { AdmittedRun, RunRequest } from './run-request';

/**
 * Admits runs and turns an admitted run into an Observable of AG-UI events. It composes the steps; the
 * steps live in input/, events/ and RunExecution (STYLE §2.9).
 */
@Injectable()
export class RunService {
  private readonly logger = new Logger(RunService.name);
  /** threadId → runId of the active run (in-memory busy slot; durable thread state comes with issue #3). */
  private readonly activeRuns = new Map<string, string>();

  constructor(
    @Inject(A2A_GATEWAY) private readonly gateway: A2aGateway,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalogue: MessageCatalogue,
  ) {}

  /** Everything that can refuse a run before the response starts (reference §6.5). */
  async admit(request: RunRequest): Promise<AdmittedRun> {
    const { input, props } = request;
    const cwd = await resolveCwd(
      props.cwd,
      this.config.allowedCwdRoots,
      this.config.homeDir,
      this.config.childEnvironment,
    ).catch((error: unknown) => {
      // The specific workspace message is not surfaced at HTTP level (reference §1.2 step 9).
      throw error instanceof AguiError
        ? new AguiError(ErrorCode.INVALID_INPUT, 'invalidForwardedProps')
        : error;
    });
    if (this.activeRuns.has(input.threadId)) throw new AguiError(ErrorCode.THREAD_BUSY, 'threadBusy');
    this.activeRuns.set(input.threadId, input.runId);
    this.logger.debug({ msg: 'run admitted', threadId: input.threadId, runId: input.runId });
    return {
      input,
      props,
      language: request.language,
      threadId: input.threadId,
      runId: input.runId,
      executionId: this.clock.uuid(),
      contextId: contextIdFor(input.threadId),
      rosInvocationId: props.rosInvocationId,
      cwd,
    };
  }

  /** The run as an Observable; unsubscribing (client gone) cancels the A2A task unless the run ended. */
  stream(run: AdmittedRun): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      const execution = new RunExecution(run, {
        gateway: this.gateway,
        clock: this.clock,
        catalogue: this.catalogue,
        logger: this.logger,
      });
      const iterator = execution.events();
      const pump = async () => {
        try {
          for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
            if (subscriber.closed) break;
            subscriber.next(next.value);
          }
          subscriber.complete();
        } catch (error) {
          subscriber.error(error);
        } finally {
          this.release(run);
        }
      };
      void pump();
      return () => execution.disconnect();
    });
  }

  private release(run: AdmittedRun): void {
    if (this.activeRuns.get(run.threadId) === run.runId) this.activeRuns.delete(run.threadId);
  }
}
