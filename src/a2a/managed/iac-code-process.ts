import { Logger } from '@nestjs/common';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildChildArguments, buildChildEnvironment } from './child-environment';
import { findFreeLoopbackPort } from './free-loopback-port';
import { IacCodeStartError } from './iac-code-start-error';

export { IacCodeStartError };

export interface IacCodeProcessOptions {
  /** Absolute path of the `iac-code` executable (found on the child's PATH). */
  readonly executable: string;
  /** The environment the child inherits (AppConfig.childEnvironment). */
  readonly environment: Readonly<Record<string, string>>;
  /** How long `/health` may take to answer 200 (IAC_CODE_AGUI_MANAGED_START_SECONDS). */
  readonly readinessTimeoutMs: number;
  readonly pollIntervalMs?: number;
  readonly probeTimeoutMs?: number;
  /** docs/behaviour/a2a.md#managed-child: SIGTERM, wait 5 s, then SIGKILL. */
  readonly stopGraceMs?: number;
  readonly logger?: Pick<Logger, 'debug' | 'log' | 'error'>;
}

interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The managed `iac-code a2a` child of docs/behaviour/a2a.md#managed-child: a free loopback port, a fresh bearer token,
 * readiness by polling `GET <url>health`, supervision while it runs, and a bounded stop.
 */
export class IacCodeProcess {
  readonly token = randomBytes(32).toString('base64url');
  private readonly logger: Pick<Logger, 'debug' | 'log' | 'error'>;
  private child?: ChildProcess;
  private exited?: Promise<ChildExit>;
  private isStopping = false;
  private baseUrl?: string;

  constructor(private readonly options: IacCodeProcessOptions) {
    this.logger = options.logger ?? new Logger(IacCodeProcess.name);
  }

  /** The kernel URL, ending with `/`; set once start() resolved. */
  get url(): string | undefined {
    return this.baseUrl;
  }

  /** Spawns the child and resolves with its URL once `/health` answers 200 with the token. */
  async start(): Promise<string> {
    const port = await findFreeLoopbackPort();
    const url = `http://127.0.0.1:${port}/`;
    const child = spawn(this.options.executable, buildChildArguments(port), {
      env: buildChildEnvironment(this.options.environment, this.token),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    // The child never outlives this process, even one that exits without stop() (a start that failed).
    const stopWithProcess = () => child.kill('SIGTERM');
    process.once('exit', stopWithProcess);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        process.off('exit', stopWithProcess);
        resolve({ code, signal });
      });
      // A spawn failure (ENOENT, EACCES) emits 'error' and never 'exit'.
      child.once('error', (error) => {
        process.off('exit', stopWithProcess);
        this.logger.error(`iac-code a2a could not be spawned: ${error.message}`);
        resolve({ code: null, signal: null });
      });
    });
    this.forwardOutput(child);
    this.logger.log(`Starting managed iac-code a2a pid=${child.pid} url=${url}`);
    await this.waitUntilHealthy(url);
    this.baseUrl = url;
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- `exited` never rejects (it resolves on exit and on a spawn error); this only logs an unexpected exit
    void this.exited.then((exit) => {
      if (!this.isStopping) {
        this.logger.error(`Managed iac-code a2a exited unexpectedly code=${exit.code} signal=${exit.signal}`);
      }
    });
    return url;
  }

  /** SIGTERM, then SIGKILL after the grace period (docs/behaviour/a2a.md#managed-child). Safe to call twice. */
  async stop(): Promise<void> {
    const { child, exited } = this;
    if (!child || !exited) return;
    this.isStopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const grace = this.options.stopGraceMs ?? 5000;
      // unref'd: a pending grace timer must not keep the process alive once the child is gone.
      const hasExited = await Promise.race([exited.then(() => true), sleep(grace, false, { ref: false })]);
      if (!hasExited) {
        this.logger.log(`Managed iac-code a2a ignored SIGTERM for ${grace} ms; sending SIGKILL`);
        child.kill('SIGKILL');
      }
    }
    await exited;
  }

  private async waitUntilHealthy(url: string): Promise<void> {
    const timeoutMs = this.options.readinessTimeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    let exit: ChildExit | undefined;
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- `exited` never rejects; this only notes the exit for the readiness loop below
    void this.exited?.then((value) => (exit = value));
    while (!deadline.aborted) {
      if (await this.isHealthy(url)) return;
      if (exit) {
        throw new IacCodeStartError(
          `iac-code a2a exited during startup with code ${exit.code}${exit.signal ? ` (${exit.signal})` : ''}.`,
          exit.code,
        );
      }
      await sleep(this.options.pollIntervalMs ?? 100);
    }
    await this.stop();
    throw new IacCodeStartError(`iac-code a2a did not become healthy within ${timeoutMs} ms.`);
  }

  private async isHealthy(url: string): Promise<boolean> {
    try {
      const response = await fetch(`${url}health`, {
        headers: { authorization: `Bearer ${this.token}` },
        signal: AbortSignal.timeout(this.options.probeTimeoutMs ?? 500),
      });
      await response.body?.cancel();
      return response.status === 200;
    } catch {
      return false;
    }
  }

  /** Child output goes to the debug log, with the token masked (CONTRIBUTING.md: never log tokens). */
  private forwardOutput(child: ChildProcess): void {
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
        this.logger.debug(`iac-code: ${line.split(this.token).join('***')}`),
      );
    }
  }
}
