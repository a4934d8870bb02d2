import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { expectConformantEvents } from '../support/agui-conformance';
import { packLibrary } from '../support/pack-library';
import { eventually, parseSse } from '../support/sse-client';

const execFileAsync = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
/** Node 24 and its npm first on PATH, as a user of the package has them. */
const PATH = `${path.join(REPO, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`;
/** Packing and installing take minutes on a loaded machine; none of it is what is checked. */
const SETUP_TIMEOUT_MS = 15 * 60 * 1000;

/** The fenced blocks of a Markdown page, in order, with their language and the heading they stand under. */
function fencedBlocks(markdown: string): { language: string; code: string; heading: string }[] {
  const blocks: { language: string; code: string; heading: string }[] = [];
  let heading = '';
  let open: { language: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line === '```') {
        blocks.push({ language: open.language, code: `${open.lines.join('\n')}\n`, heading });
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { language: line.slice(3).trim(), lines: [] };
    else if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
  }
  return blocks;
}

/** One shell block of the page, run by bash as a reader pastes it; a failure carries its output. */
async function runShell(code: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await execFileAsync('bash', ['-euo', 'pipefail', '-c', code], {
      cwd,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${code}failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

/**
 * docs/extending.md's host example and its "Try it" steps, run as written from an empty folder: the packed
 * tarball installed with the page's own command, the example compiled and started, the page's curl streaming a
 * run through it against the scripted kernel of `agui-a2a-gateway/testing`. Only the host's port differs (the
 * machine is shared): `PORT`, as the page offers.
 */
describe('docs/extending.md, followed from an empty folder', () => {
  const blocks = fencedBlocks(readFileSync(path.join(REPO, 'docs/extending.md'), 'utf8'));
  const example = blocks.find((block) => block.language === 'ts');
  const [install, start, stream] = blocks.filter(
    (block) => block.heading === 'Try it' && block.language === 'sh',
  );
  const work = mkdtempSync(path.join(os.tmpdir(), 'agui-extending-doc-'));
  const folder = path.join(work, 'my-host');
  const env = { HOME: os.homedir(), PATH, npm_config_prefer_offline: 'true' };
  let host: ChildProcess | undefined;
  let hostOutput = '';
  let hostUrl: string;
  let emptyAtStart: string[];

  beforeAll(async () => {
    const { tarball } = packLibrary(work);
    mkdirSync(folder);
    emptyAtStart = readdirSync(folder);
    writeFileSync(path.join(folder, 'host.mts'), example!.code);
    await runShell(install.code, folder, { ...env, AGUI_TARBALL: tarball });
    // Its own process group: the host (and a shell in front of it) stop together.
    host = spawn('bash', ['-c', start.code], {
      cwd: folder,
      env: { ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    hostUrl = await new Promise<string>((resolve, reject) => {
      const onOutput = (chunk: Buffer) => {
        hostOutput += chunk.toString('utf8');
        const listening = /listening on (http:\/\/\S+)/.exec(hostOutput);
        if (listening) resolve(listening[1]);
      };
      host!.stdout?.on('data', onOutput);
      host!.stderr?.on('data', onOutput);
      host!.once('exit', (code) => reject(new Error(`the host exited (${code}):\n${hostOutput}`)));
    });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    if (host?.pid !== undefined && host.exitCode === null) {
      const exited = new Promise((resolve) => host!.once('exit', resolve));
      process.kill(-host.pid, 'SIGTERM');
      await exited;
    }
    // The folder holds a whole node_modules: do not leave it on a shared machine.
    rmSync(work, { recursive: true, force: true });
  });

  it('has the example and its three steps (install, start, stream)', () => {
    expect(emptyAtStart).toEqual([]);
    expect(example?.code).toContain("from 'agui-a2a-gateway/testing'");
    expect(install.code).toContain('"$AGUI_TARBALL"');
    expect(start.code.trim()).toBe('node host.mjs');
    expect(stream.code).toContain('http://127.0.0.1:3000/agents/iac');
  });

  it("streams a conformant run through the host with the page's curl, and the host's audit hook sees it", async () => {
    const text = await runShell(
      stream.code.replace('http://127.0.0.1:3000/agents/iac', hostUrl),
      folder,
      env,
    );
    const { events } = parseSse(text);
    await expectConformantEvents(events);
    expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' });
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['TEXT_MESSAGE_CONTENT', 'TOOL_CALL_START']),
    );
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const audited = await eventually(
      () => Promise.resolve(hostOutput),
      (output) => output.includes('audit: thread-1 run-1 success'),
    );
    expect(audited).toContain('audit: thread-1 run-1 success');
  });
});
