import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findExecutable } from '../../src/a2a/managed/find-executable';
import { IacCodeProcess, IacCodeStartError } from '../../src/a2a/managed/iac-code-process';
import { isAlive } from '../support/child-processes';
import { eventually } from '../support/sse-client';

const FAKE_DIRECTORY = path.resolve(__dirname, '../support/fake-iac-code');
// Node 24 (the one running Jest) first, so the fake's `#!/usr/bin/env node` never picks the system Node 20.
const CHILD_PATH = [FAKE_DIRECTORY, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter);

interface Recorded {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly pid: number;
}

describe('IacCodeProcess with a fake iac-code', () => {
  let directory: string;
  let recordFile: string;
  let executable: string;
  const debugLines: string[] = [];
  const errorLines: string[] = [];
  const logger = {
    debug: (m: string) => debugLines.push(m),
    log: () => undefined,
    error: (m: string) => errorLines.push(m),
  };
  const processes: IacCodeProcess[] = [];

  function managed(
    mode: string,
    overrides: Record<string, string> = {},
    timing: { readinessTimeoutMs?: number; stopGraceMs?: number } = {},
  ) {
    const child = new IacCodeProcess({
      executable,
      environment: {
        PATH: CHILD_PATH,
        FAKE_IAC_CODE_RECORD: recordFile,
        FAKE_IAC_CODE_MODE: mode,
        IAC_CODE_AGUI_ALLOWED_CWDS: '/work/a:/work/b',
        IAC_CODE_MODE: 'inherited-value',
        ...overrides,
      },
      logger,
      readinessTimeoutMs: 20_000,
      ...timing,
    });
    processes.push(child);
    return child;
  }
  const recorded = () => JSON.parse(readFileSync(recordFile, 'utf8')) as Recorded;

  beforeAll(async () => {
    executable = (await findExecutable('iac-code', CHILD_PATH)) ?? '';
  });
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'fake-iac-code-'));
    recordFile = path.join(directory, 'record.json');
    debugLines.length = 0;
    errorLines.length = 0;
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((child) => child.stop()));
    rmSync(directory, { recursive: true, force: true });
  });

  it('finds the fake on the child PATH', () => {
    expect(executable).toBe(path.join(FAKE_DIRECTORY, 'iac-code'));
  });

  it('starts the child with the kernel arguments and environment, serves, and stops it with SIGTERM', async () => {
    const child = managed('serve');

    const url = await child.start();

    const { argv, env, pid } = recorded();
    const port = Number(new URL(url).port);
    expect(url).toBe(`http://127.0.0.1:${port}/`);
    expect(child.url).toBe(url);
    expect(argv).toEqual([
      'a2a',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--thinking-exposure',
      'all',
    ]);
    expect(child.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(env).toMatchObject({
      IACCODE_A2A_HTTP_TOKEN: child.token,
      IACCODE_A2A_ALLOWED_CWDS: '/work/a:/work/b',
      IAC_CODE_MODE: 'inherited-value',
    });
    const health = await fetch(`${url}health`, { headers: { authorization: `Bearer ${child.token}` } });
    expect(health.status).toBe(200);
    expect((await fetch(`${url}health`)).status).toBe(401);
    // The child's own line is relayed as it arrives on its stderr.
    await eventually(
      async () => debugLines.join('\n'),
      (text) => text.includes('listening on'),
    );
    expect(debugLines.join('\n')).toContain(`listening on ${port} with token ***`);
    expect(debugLines.join('\n')).not.toContain(child.token);

    await child.stop();

    expect(isAlive(pid)).toBe(false);
    expect(readFileSync(`${recordFile}.signals`, 'utf8')).toBe('SIGTERM\n');
    await expect(fetch(`${url}health`)).rejects.toThrow();
    expect(errorLines).toEqual([]);
  });

  it('keeps an explicit IACCODE_A2A_ALLOWED_CWDS', async () => {
    await managed('serve', { IACCODE_A2A_ALLOWED_CWDS: '/kernel/own' }).start();

    expect(recorded().env.IACCODE_A2A_ALLOWED_CWDS).toBe('/kernel/own');
  });

  it('fails to start with the exit code when the child exits during startup', async () => {
    const outcome = await managed('exit3')
      .start()
      .catch((error: unknown) => error);

    expect(outcome).toBeInstanceOf(IacCodeStartError);
    expect((outcome as IacCodeStartError).exitCode).toBe(3);
    expect((outcome as Error).message).toContain('code 3');
  });

  it('times out, and kills the child, when it never becomes healthy', async () => {
    const child = managed('unhealthy', {}, { readinessTimeoutMs: 700 });

    const outcome = await child.start().catch((error: unknown) => error);

    expect(outcome).toBeInstanceOf(IacCodeStartError);
    expect((outcome as Error).message).toContain('700 ms');
    expect(child.url).toBeUndefined();
    expect(isAlive(recorded().pid)).toBe(false);
  });

  it('sends SIGKILL after the grace period when the child ignores SIGTERM', async () => {
    const child = managed('ignore-term', {}, { stopGraceMs: 300 });
    await child.start();
    const { pid } = recorded();

    await child.stop();

    expect(readFileSync(`${recordFile}.signals`, 'utf8')).toBe('SIGTERM\n');
    expect(isAlive(pid)).toBe(false);
  });

  it('logs an unexpected exit of a running child', async () => {
    const child = managed('serve');
    await child.start();

    process.kill(recorded().pid, 'SIGKILL');
    await eventually(
      async () => errorLines.length,
      (count) => count > 0,
    ); // logged once the exit is seen

    expect(errorLines).toEqual([expect.stringContaining('exited unexpectedly code=null signal=SIGKILL')]);
  });
});
