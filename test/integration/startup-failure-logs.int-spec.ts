import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand, type CommandResult } from '../deploy/support/run-command';
import { buildServiceForTests, NODE_24 } from '../support/service-process';

/**
 * The real process (`main.ts`, compiled from the current sources) failing to start: every line it writes, Nest's
 * own boot lines included, is JSON with IAC_CODE_AGUI_LOG_FORMAT=json, and one fatal line says why.
 */
const FAKE_DIRECTORY = path.resolve(__dirname, '../support/fake-iac-code');
const CHILD_PATH = [FAKE_DIRECTORY, path.dirname(NODE_24), '/usr/bin', '/bin'].join(path.delimiter);

interface LogLine {
  readonly level: number;
  readonly msg?: string;
  readonly context?: string;
}

/** Every non-empty line of both streams, parsed: JSON.parse throws on a line that is not JSON. */
function logLinesOf(result: CommandResult): LogLine[] {
  return `${result.stdout}\n${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON log line: ${JSON.stringify(line)}`);
      }
    });
}

const FATAL = 60;

describe('a failed start logs JSON lines only', () => {
  let buildDir: string;
  let stateDir: string;

  const start = (env: Record<string, string>) =>
    runCommand(NODE_24, [path.join(buildDir, 'main.js')], {
      cwd: stateDir,
      env: {
        HOME: stateDir,
        PATH: CHILD_PATH,
        IAC_CODE_AGUI_LOG_FORMAT: 'json',
        IAC_CODE_AGUI_STATE_DIR: stateDir,
        IAC_CODE_AGUI_PORT: '0',
        ...env,
      },
      timeoutMs: 60_000,
    });

  beforeAll(async () => {
    buildDir = await buildServiceForTests();
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-startup-'));
  }, 160_000);

  afterAll(() => {
    for (const dir of [buildDir, stateDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the managed kernel exits during startup: exit code 1, Nest and the failure as JSON', async () => {
    const result = await start({ FAKE_IAC_CODE_MODE: 'exit3' });

    expect(result.code).toBe(1);
    const lines = logLinesOf(result);
    expect(lines).toContainEqual(expect.objectContaining({ context: 'NestFactory' }));
    expect(lines.filter((line) => line.level === FATAL)).toEqual([
      expect.objectContaining({
        context: 'Bootstrap',
        msg: 'agui-a2a-gateway did not start: iac-code a2a exited during startup with code 3.',
      }),
    ]);
  });

  it('the managed kernel is not ready within IAC_CODE_AGUI_MANAGED_START_SECONDS', async () => {
    const result = await start({
      FAKE_IAC_CODE_MODE: 'unhealthy',
      IAC_CODE_AGUI_MANAGED_START_SECONDS: '0.5',
    });

    expect(result.code).toBe(1);
    expect(logLinesOf(result).filter((line) => line.level === FATAL)).toEqual([
      expect.objectContaining({
        msg: 'agui-a2a-gateway did not start: iac-code a2a did not become healthy within 500 ms.',
      }),
    ]);
  });

  it('a bad setting: the fatal line names the variable', async () => {
    const result = await start({ IAC_CODE_AGUI_MANAGED_START_SECONDS: 'soon' });

    expect(result.code).toBe(1);
    const [fatal, ...others] = logLinesOf(result);
    expect(others).toEqual([]);
    expect(fatal).toMatchObject({
      level: FATAL,
      msg: expect.stringContaining('IAC_CODE_AGUI_MANAGED_START_SECONDS'),
    });
    // A boot error names the variable, never its value (README "Configuration": it may carry a secret).
    expect(fatal.msg).not.toContain('soon');
  });

  it.each(['s3cr3t@kernel:9000', 's3cr3t.invalid'])(
    'a bad IAC_CODE_AGUI_HOST (%s): the fatal line names the setting, never the value, with no stack trace',
    async (host) => {
      const result = await start({ IAC_CODE_AGUI_HOST: host });

      expect(result.code).toBe(1);
      const fatal = logLinesOf(result).filter((line) => line.level === FATAL);
      expect(fatal).toEqual([
        expect.objectContaining({ msg: expect.stringContaining('IAC_CODE_AGUI_HOST: ') }),
      ]);
      expect(fatal[0].msg).not.toContain('s3cr3t');
      expect(fatal[0].msg).not.toMatch(/\n\s+at /);
    },
  );

  it('the port is taken after the kernel started: the kernel is stopped and the process exits 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const record = path.join(stateDir, 'port-taken-record.json');
    try {
      const { port } = blocker.address() as net.AddressInfo;
      const result = await start({ IAC_CODE_AGUI_PORT: String(port), FAKE_IAC_CODE_RECORD: record });

      expect(result.code).toBe(1);
      expect(logLinesOf(result).filter((line) => line.level === FATAL)).toEqual([
        expect.objectContaining({ msg: expect.stringContaining('EADDRINUSE') }),
      ]);
      expect(fs.readFileSync(`${record}.signals`, 'utf8')).toBe('SIGTERM\n');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
