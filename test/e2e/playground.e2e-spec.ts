import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { SLOW_DELTA_COUNT } from '../../src/demo-kernel/faults/failure-scripts';
import { PLAYGROUND_PAGE_DIR } from '../../src/playground/playground-page-dir';
import { startGateway, type RunningGateway } from '../support/start-gateway';

/**
 * The browser playground  driven by Debian's Chromium through playwright-core (no browser is
 * downloaded; scripts/test-setup.sh, which `npm test` runs first, installs the `chromium` package). The
 * service runs on its demo agent with a bearer token, and the page talks to it with HttpAgent, as a user would.
 */
const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'playground-e2e-token';
const ARTIFACTS = path.join(__dirname, '..', 'artifacts', 'playground');
const ROOT = path.join(__dirname, '..', '..');

/** Builds the page from the current sources into a folder of its own: never tests a stale dist/. */
function buildPage(): string {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'agui-playground-page-'));
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'playground/vite.config.mts',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, stdio: 'pipe', env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' } },
  );
  return outDir;
}

describe('playground in a browser', () => {
  let gateway: RunningGateway;
  let browser: Browser;
  let page: Page;
  let pageDir: string;
  const requests: Request[] = [];
  const pageErrors: string[] = [];

  const shoot = (name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  const sendPrompt = async (text: string) => {
    await page.fill('#prompt-input', text);
    await page.press('#prompt-input', 'Enter');
  };
  const status = () => page.textContent('#run-status');
  const waitForStatus = (text: string) => page.locator('#run-status', { hasText: text }).waitFor();

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: run scripts/test-setup.sh (apt-get install chromium)`);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    pageDir = buildPage();
    gateway = await startGateway(
      {
        IAC_CODE_AGUI_UPSTREAM: 'demo',
        IAC_CODE_AGUI_PLAYGROUND: 'true',
        IAC_CODE_AGUI_AUTH_TOKEN: TOKEN,
        IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
        // A reload mid-turn follows the turn again (docs/behaviour/reattach.md).
        IAC_CODE_AGUI_REATTACH_SECONDS: '30',
      },
      (builder) => builder.overrideProvider(PLAYGROUND_PAGE_DIR).useValue(pageDir),
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('request', (request) => void requests.push(request));
    page.on('pageerror', (error) => void pageErrors.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    if (pageDir) rmSync(pageDir, { recursive: true, force: true });
  });

  it('asks for the bearer token once and keeps it for the tab', async () => {
    await page.goto(`${gateway.url}playground`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#token-panel')).toBe(true);
    await page.fill('#token-input', TOKEN);
    await page.press('#token-input', 'Enter');
    expect(await page.isVisible('#token-panel')).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem('agui-playground.token'))).toBe(TOKEN);

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.isVisible('#token-panel')).toBe(false);
    expect(await page.inputValue('#cwd-input')).toBe(path.join(os.tmpdir(), 'agui-playground'));
    await shoot('01-ready');
  });

  it('reaches the prompt with Tab, sends with Enter and streams the answer', async () => {
    await page.locator('h1').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('prompt-input');
    await page.keyboard.type('Create a VPC template');
    await page.keyboard.press('Enter');

    await page.waitForSelector('.entry-finished');
    expect(await status()).toBe('Run finished.');
    const answer = await page.textContent('.entry-assistant .entry-text');
    expect(answer).toContain('You asked about “Create a VPC template”.');
    expect(answer).toContain('I attached it as template.yaml');
    // Streamed: the text came as several deltas, each one an entry of the timeline.
    expect(await page.locator('.timeline-event[data-type="TEXT_MESSAGE_CONTENT"]').count()).toBeGreaterThan(
      2,
    );
    expect(await page.textContent('.entry-tool')).toContain('Template is valid: 2 resources');
    expect(await page.textContent('.entry-tool')).toContain('ros_validate_template');
    expect(await page.textContent('.entry-reasoning')).toContain('infrastructure as code');
    expect(await page.textContent('.entry-artifact')).toContain('template.yaml');
    // Usage totals: what RUN_FINISHED.usage said, as the timeline shows it.
    const finished = JSON.parse(
      (await page.locator('.timeline-event[data-type="RUN_FINISHED"] pre').textContent()) ?? '',
    ) as { usage: { inputTokens: number; totalTokens: number }[] };
    expect(finished.usage[0].totalTokens).toBeGreaterThan(0);
    expect(await page.textContent('[data-usage="total"]')).toBe(String(finished.usage[0].totalTokens));
    expect(await page.textContent('[data-usage="input"]')).toBe(String(finished.usage[0].inputTokens));
    await shoot('02-streamed-turn');
  });

  it('opens an event of the timeline as JSON', async () => {
    const runFinished = page.locator('.timeline-event[data-type="RUN_FINISHED"]');
    expect(await runFinished.locator('pre').isVisible()).toBe(false);
    await runFinished.locator('summary').click();
    const json = JSON.parse((await runFinished.locator('pre').textContent()) ?? '') as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('answers a permission interrupt through the form generated from its schema', async () => {
    await page.click('#new-thread-button');
    const posts: Record<string, unknown>[] = [];
    const listener = (request: Request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/')
        posts.push(request.postDataJSON());
    };
    page.on('request', listener);
    await sendPrompt('permission');
    const form = page.locator('.interrupt-form');
    await form.waitFor();
    expect(await form.locator('legend').textContent()).toBe('Run a local shell command. Allow once?');
    expect(await form.locator('button').allTextContents()).toEqual(['Allow once', 'Deny']);
    expect(await status()).toBe('The agent is waiting for your answer.');
    await shoot('03-permission-interrupt');

    await form.locator('button', { hasText: 'Allow once' }).click();
    await waitForStatus('Run finished.');
    page.off('request', listener);
    expect(await page.isVisible('#interrupts')).toBe(false);
    expect(await page.textContent('.entry-tool .tool-result')).toContain('/workspace');
    expect(await page.locator('.entry-assistant').last().textContent()).toContain('The command ran.');

    // The resume: same thread, a new runId, the same rosInvocationId, the answer the button stands for.
    const [first, resume] = posts as {
      threadId: string;
      runId: string;
      resume?: unknown;
      forwardedProps: { iacCode: Record<string, unknown> };
    }[];
    expect(resume.threadId).toBe(first.threadId);
    expect(resume.runId).not.toBe(first.runId);
    expect(resume.forwardedProps.iacCode.rosInvocationId).toBe(first.forwardedProps.iacCode.rosInvocationId);
    expect(resume.resume).toEqual([
      { interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow_once' } },
    ]);
    expect(first.forwardedProps.iacCode).toEqual({
      schemaVersion: 1,
      rosInvocationId: expect.stringMatching(/^playground-/),
      cwd: path.join(os.tmpdir(), 'agui-playground'),
    });
    await shoot('04-permission-answered');
  });

  it('answers a question by choosing an option', async () => {
    await sendPrompt('question');
    const form = page.locator('.interrupt-form');
    await form.waitFor();
    expect(await form.locator('label').allTextContents()).toEqual([
      'Plan A',
      'Plan B',
      'Answer in my own words',
    ]);
    await form.getByLabel('Plan B').check();
    await form.locator('button[type="submit"]').click();
    await waitForStatus('Run finished.');
    expect(await page.locator('.entry-user').last().textContent()).toContain('Plan B');
  });

  it('cancels a slow run and shows RUN_ERROR CANCELLED', async () => {
    await sendPrompt('slow');
    await page.waitForSelector('#cancel-button:not([disabled])');
    await page.waitForSelector('.timeline-event[data-type="TEXT_MESSAGE_CONTENT"] >> nth=-1');
    await shoot('05-slow-running');
    await page.click('#cancel-button');
    const error = page.locator('.entry-error').last();
    await error.waitFor();
    expect(await error.locator('.error-code').textContent()).toBe('CANCELLED');
    expect(await error.locator('.error-message').textContent()).toBe('The execution was cancelled.');
    expect(await status()).toBe('Run failed: CANCELLED — The execution was cancelled.');
    expect(await page.isDisabled('#cancel-button')).toBe(true);
    await shoot('06-cancelled');
  });

  it('reloaded during a slow turn, shows the rest of the turn', async () => {
    await sendPrompt('slow');
    await page.waitForSelector('.timeline-event[data-type="TEXT_MESSAGE_CONTENT"] >> nth=2');
    const before = (await page.textContent('.entry-assistant >> nth=-1')) ?? '';
    expect(before).not.toContain(`Step ${SLOW_DELTA_COUNT} of ${SLOW_DELTA_COUNT}.`);
    await page.reload();
    await waitForStatus('Run finished.');
    const answer = await page.textContent('.entry-assistant .entry-text >> nth=-1');
    expect(answer).toBe(
      Array.from({ length: SLOW_DELTA_COUNT }, (_, i) => `Step ${i + 1} of ${SLOW_DELTA_COUNT}. `).join(''),
    );
    await shoot('07-reloaded-mid-turn');
  });

  it('raised no script error', () => expect(pageErrors).toEqual([]));

  it('made no request that left the gateway', () => {
    const origin = new URL(gateway.url).origin;
    const outside = requests
      .map((request) => request.url())
      .filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
    expect(requests.length).toBeGreaterThan(5);
    expect(outside).toEqual([]);
  });
});
