import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  ADMISSION_CODES,
  IN_STREAM_CODES,
  PRE_STREAM_CODES,
  cancelBodyArbitrary,
  idArbitrary,
  rawRunRequestArbitrary,
  runBodyArbitrary,
  statusOfCode,
} from '../support/fuzz-inputs';
import { exposedGc } from '../support/exposed-gc';
import { parseSse } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { WsRunClient } from '../support/ws-client';

/**
 * Property-based fuzzing of every input surface against the real app on port 0 (demo kernel, file store):
 * only documented statuses and codes come back, never a 5xx; a refused request leaves no state file and no
 * directory behind (but the workspace it named, when the thread's state refused it after the workspace was
 * resolved); and the heap does not grow across batches of requests. `AGUI_FUZZ_RUNS` scales the
 * number of bodies per property (default 120); scripts/fuzz-memory.ts runs 100,000 against the built service.
 */
const RUNS = Number(process.env.AGUI_FUZZ_RUNS ?? 120);
/**
 * Each property is bounded by its count, never by the clock: its Jest timeout grows with the number of
 * bodies it sends, at a budget per body far above what one takes on a loaded machine (tens of ms), so a
 * slow machine makes the test slower, never red.
 */
const BUDGET_PER_BODY_MS = 2_000;
const timeoutFor = (bodies: number) => Math.max(30_000, bodies * BUDGET_PER_BODY_MS);
/** Heap growth tolerated between the first and the last batch once warm: allocator noise, not a leak's size. */
const HEAP_MARGIN_BYTES = 24 * 1024 * 1024;

const collectGarbage = exposedGc();

type Envelope = { error: { code: string; message: string } };

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

describe('fuzzed input', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'agui-fuzz-root-'));
  const stateDir = mkdtempSync(path.join(tmpdir(), 'agui-fuzz-state-'));
  const gateway = useGateway({
    env: {
      IAC_CODE_AGUI_UPSTREAM: 'demo',
      IAC_CODE_AGUI_ALLOWED_CWDS: root,
      IAC_CODE_AGUI_STATE_DIR: stateDir,
      // The smallest cache (64 KiB of thread JSON): full after the warm-up batch, it cannot hide a leak as growth.
      IAC_CODE_AGUI_THREAD_CACHE_BYTES: '65536',
      IAC_CODE_AGUI_INTERRUPT_TTL: '0',
      // The server never closes an idle keep-alive connection during the file: a close racing the client's
      // next request on that socket is an ECONNRESET that says nothing about the input.
      IAC_CODE_AGUI_HTTP_KEEP_ALIVE_SECONDS: '3600',
    },
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  });

  /** Every directory under the workspace root and every state file (temp files of writes in flight left out). */
  async function diskSnapshot(): Promise<string[]> {
    const workspaces = await readdir(root, { recursive: true });
    const threads = await readdir(path.join(stateDir, 'threads')).catch(() => []);
    return [...workspaces, ...threads.map((name) => `threads/${name}`)]
      .filter((name) => !name.endsWith('.tmp'))
      .sort();
  }

  async function post(route: string, body: string, contentType = 'application/json') {
    const response = await fetch(`${gateway.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': contentType, accept: 'text/event-stream' },
      body,
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      text: await response.text(),
    };
  }

  /**
   * What the error table allows for a refusal on a face: `POST /` (JSON envelope) or `/invocations` (one
   * RUN_ERROR frame). Returns the code.
   */
  function expectDocumentedRefusal(route: string, status: number, text: string): string {
    const code =
      route === 'invocations'
        ? (parseSse(text).events as { code?: string }[])[0]?.code
        : (JSON.parse(text) as Envelope).error.code;
    expect(PRE_STREAM_CODES).toContain(code);
    expect(statusOfCode(code as string)).toBe(status);
    return code as string;
  }

  /** The workspace a body names and its parents, relative to the root: what resolving it may create. */
  function workspaceDirsOf(body: string): string[] {
    let cwd: unknown;
    try {
      cwd = (JSON.parse(body) as { forwardedProps?: { iacCode?: { cwd?: unknown } } })?.forwardedProps
        ?.iacCode?.cwd;
    } catch {
      return [];
    }
    if (typeof cwd !== 'string') return [];
    const relative = path.relative(root, path.normalize(cwd));
    const names = relative.split(path.sep);
    // A first name of `..` leaves the root; `..%2f` (a name that only starts with two dots) stays inside it.
    if (relative === '' || names[0] === '..' || path.isAbsolute(relative)) return [];
    return names.map((_, index) => names.slice(0, index + 1).join(path.sep));
  }

  /** A run that was admitted ends with RUN_FINISHED or a RUN_ERROR with an in-stream code. */
  function expectDocumentedRun(text: string): void {
    const last = parseSse(text).events.at(-1) as { type?: string; code?: string } | undefined;
    expect(['RUN_FINISHED', 'RUN_ERROR']).toContain(last?.type);
    if (last?.type === 'RUN_ERROR') expect(IN_STREAM_CODES).toContain(last.code);
  }

  it(
    'answers every run request with a documented status and code, and a refusal leaves nothing on disk',
    async () => {
      let admitted = 0;
      await fc.assert(
        fc.asyncProperty(
          rawRunRequestArbitrary(root),
          fc.constantFrom('', 'invocations'),
          async (request, route) => {
            const before = await diskSnapshot();
            const { status, text } = await post(route, request.body, request.contentType);
            if (status === 200) {
              admitted++;
              return expectDocumentedRun(text);
            }
            const code = expectDocumentedRefusal(route, status, text);
            // A refusal by the thread's state may leave the workspace the body named (created when it was
            // resolved, before those checks, as the original does); nothing else, and never a state file.
            const mayCreate = ADMISSION_CODES.has(code) ? workspaceDirsOf(request.body) : [];
            const after = await diskSnapshot();
            expect(after.filter((entry) => before.includes(entry) || !mayCreate.includes(entry))).toEqual(
              before,
            );
          },
        ),
        { numRuns: RUNS },
      );
      // The generator must reach the run path too, not only the refusals.
      expect(admitted).toBeGreaterThan(0);
    },
    timeoutFor(RUNS),
  );

  it(
    'answers every cancel request with a documented status and code',
    async () => {
      const executionId = fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9-]{1,40}$/),
        fc.integer({ min: 1020, max: 1100 }).map((length) => 'e'.repeat(length)),
      );
      await fc.assert(
        fc.asyncProperty(executionId, cancelBodyArbitrary, async (id, body) => {
          const { status, text } = await post(
            `extensions/iac-code/v1/executions/${id}/cancel`,
            JSON.stringify(body) ?? 'null',
          );
          const answer = JSON.parse(text) as Envelope | { executionId: string; status: string };
          if (status === 200) return expect(answer).toMatchObject({ executionId: id });
          const { code } = (answer as Envelope).error;
          expect([...PRE_STREAM_CODES, 'A2A_UNAVAILABLE']).toContain(code);
          expect(statusOfCode(code)).toBe(status);
        }),
        { numRuns: RUNS },
      );
    },
    timeoutFor(RUNS),
  );

  it(
    'answers every /ws message with a run, one documented RUN_ERROR, or close 1003 for a non-object',
    async () => {
      const client = await WsRunClient.open(gateway.url);
      const message = fc.oneof(
        { weight: 4, arbitrary: runBodyArbitrary(root).map((body) => JSON.stringify(body) ?? 'null') },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) },
      );
      try {
        await fc.assert(
          fc.asyncProperty(message, async (text) => {
            if (!isJsonObject(text)) {
              // Documented: a frame that is not a JSON object closes its socket with 1003.
              const other = await WsRunClient.open(gateway.url);
              other.send(text);
              return expect((await other.closed).code).toBe(1003);
            }
            client.send(text);
            const last = (await client.nextRun(BUDGET_PER_BODY_MS * RUNS)).at(-1) as
              { type: string; code?: string } | undefined;
            if (last?.type === 'RUN_ERROR')
              expect([...PRE_STREAM_CODES, ...IN_STREAM_CODES]).toContain(last.code);
            else expect(last?.type).toBe('RUN_FINISHED');
          }),
          { numRuns: RUNS },
        );
        expect(client.socket.readyState).toBe(client.socket.OPEN);
      } finally {
        client.socket.close();
      }
    },
    timeoutFor(RUNS),
  );

  it(
    'refuses ids and workspaces over the limits without creating anything',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            { threadId: 't'.repeat(1025) },
            { runId: 'r'.repeat(4 * 1024 * 1024) },
            { cwd: `${root}/${'c/'.repeat(32_000)}` },
            { cwd: `${root}/${'c/'.repeat(256)}` },
          ),
          idArbitrary,
          async (override, threadId) => {
            const before = await diskSnapshot();
            const body = {
              threadId:
                override.threadId ?? (typeof threadId === 'string' && threadId !== '' ? threadId : 't'),
              runId: override.runId ?? 'run-1',
              messages: [{ id: 'm1', role: 'user', content: 'fuzz' }],
              forwardedProps: {
                iacCode: { schemaVersion: 1, rosInvocationId: 'inv-1', cwd: override.cwd ?? root },
              },
            };
            const { status, text } = await post('', JSON.stringify(body));
            expect(status).toBe(400);
            expect((JSON.parse(text) as Envelope).error.code).toBe('INVALID_INPUT');
            expect(await diskSnapshot()).toEqual(before);
          },
        ),
        { numRuns: 16 },
      );
    },
    timeoutFor(16),
  );

  it(
    'does not grow the heap across batches of fuzzed requests',
    async () => {
      const hostile = [
        JSON.stringify({
          threadId: 't',
          runId: 'r'.repeat(4 * 1024 * 1024),
          messages: [],
          forwardedProps: {},
        }),
        JSON.stringify({
          threadId: 'deep',
          runId: 'run-deep',
          messages: [{ id: 'm', role: 'user', content: 'fuzz' }],
          forwardedProps: {
            iacCode: { schemaVersion: 1, rosInvocationId: 'i', cwd: `${root}/${'c/'.repeat(32_000)}` },
          },
        }),
      ];
      const batch = async (seed: number) => {
        const bodies = fc.sample(rawRunRequestArbitrary(root), { numRuns: Math.ceil(RUNS / 2), seed });
        for (const { body, contentType } of bodies) await post('', body, contentType);
        for (let i = 0; i < 4; i++) for (const body of hostile) await post('', body);
      };
      const heapAfterGc = () => {
        collectGarbage();
        collectGarbage();
        return process.memoryUsage().heapUsed;
      };
      await batch(1); // warm-up: caches, JIT, connection pools
      const warm = heapAfterGc();
      for (let seed = 2; seed <= 4; seed++) await batch(seed);
      const growth = heapAfterGc() - warm;
      // Three batches each carry 16 MiB of hostile ids alone: kept per request, they would exceed the margin.
      expect(growth).toBeLessThan(HEAP_MARGIN_BYTES);
    },
    timeoutFor(4 * (Math.ceil(RUNS / 2) + 8)),
  );
});
