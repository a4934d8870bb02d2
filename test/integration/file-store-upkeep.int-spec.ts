import { mkdir, mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../../src/common/error-code';
import { FileThreadStore, type DurableWrite } from '../../src/threads/file-thread-store';
import { THREAD_STORE } from '../../src/threads/thread-store';
import { useGateway } from '../support/use-gateway';

/** The write a full disk allows: none. */
const diskFull: DurableWrite = () =>
  Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));

const TWO_MINUTES_AGO = new Date(Date.now() - 120_000);

/** The file store's upkeep: readiness that writes, and no leftovers of killed processes. */
describe('FileThreadStore upkeep', () => {
  const gateways = useGateway({ startBeforeAll: false, env: { IAC_CODE_AGUI_UPSTREAM: 'demo' } });
  let stateDir: string;
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'agui-upkeep-'));
  });

  it('is not ready when a write fails although the directory is writable, and leaves no probe file', async () => {
    const full = new FileThreadStore(stateDir, { writeDurably: diskFull });
    await expect(full.checkReady()).rejects.toMatchObject({ code: ErrorCode.STATE_UNAVAILABLE });
    const healthy = new FileThreadStore(stateDir);
    await expect(healthy.checkReady()).resolves.toBeUndefined();
    expect(await readdir(join(stateDir, 'threads'))).toEqual([]);
  });

  it('answers /health/ready 503 on a full state directory', async () => {
    const gateway = await gateways.start({ IAC_CODE_AGUI_STATE_DIR: stateDir }, (builder) =>
      builder
        .overrideProvider(THREAD_STORE)
        .useValue(new FileThreadStore(stateDir, { writeDurably: diskFull })),
    );
    const response = await fetch(`${gateway.url}health/ready`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { threadStore: { status: 'down' } } });
  });

  it('removes its own stale temp files at start, and nothing else', async () => {
    const threads = join(stateDir, 'threads');
    await mkdir(threads, { recursive: true });
    const stale = ['.thread-a.json.0123456789abcdef.tmp', '.readiness.json.fedcba9876543210.tmp'];
    const kept = [
      '.thread-b.json.aaaaaaaaaaaaaaaa.tmp', // young: another process may be writing it
      '.thread-c.json.tmp', // not our pattern
      '.thread-d.json.0123456789ABCDEF.tmp', // not our pattern (upper-case hex)
      'thread-e.json',
      'notes.txt',
    ];
    for (const name of [...stale, ...kept]) await writeFile(join(threads, name), '{}');
    await mkdir(join(threads, '.thread-f.json.1111111111111111.tmp')); // a directory is never removed
    for (const name of [...stale, ...kept.slice(1), '.thread-f.json.1111111111111111.tmp'])
      await utimes(join(threads, name), TWO_MINUTES_AGO, TWO_MINUTES_AGO);

    const gateway = await gateways.start({ IAC_CODE_AGUI_STATE_DIR: stateDir });
    expect((await readdir(threads)).sort()).toEqual([...kept, '.thread-f.json.1111111111111111.tmp'].sort());
    expect(
      gateway.logs.some(
        (line) => line.includes('"msg":"removed stale temp files"') && line.includes('"count":2'),
      ),
    ).toBe(true);
  });
});
