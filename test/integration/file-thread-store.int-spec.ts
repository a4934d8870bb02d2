import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
  chmod,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '../../src/common/error-code';
import { canonicalDigest } from '../../src/wire/canonical-digest';
import { decideAdmission } from '../../src/threads/decide-admission';
import { FileThreadStore } from '../../src/threads/file-thread-store';
import { serializeThreadState, type ThreadState } from '../../src/threads/thread-state';
import { describeThreadStoreContract, sampleThreadState } from '../support/thread-store.contract';

const FIXTURES = join(__dirname, '../fixtures/threads');
const STATE_UNAVAILABLE = { code: ErrorCode.STATE_UNAVAILABLE, messageKey: 'stateUnavailable' };

async function makeStateDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'agui-threads-'));
}

describeThreadStoreContract('FileThreadStore', async () => {
  const stateDir = await makeStateDir();
  const store = new FileThreadStore(stateDir);
  return {
    store,
    cleanup: () => rm(stateDir, { recursive: true, force: true }),
    corrupt: (threadId) => writeFile(store.pathForThread(threadId), '{"schemaVersion": 1, "threadId": '),
  };
});

describe('FileThreadStore on disk', () => {
  let stateDir: string;
  let store: FileThreadStore;
  beforeEach(async () => {
    stateDir = await makeStateDir();
    store = new FileThreadStore(stateDir);
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  const threadFiles = async () => (await readdir(join(stateDir, 'threads'))).sort();

  it('writes exactly the serialised document at <stateDir>/threads/<stem>.json', async () => {
    const state = sampleThreadState('thread-1');
    await store.save(state);
    expect(await threadFiles()).toEqual(['thread-1.json']);
    expect(await readFile(join(stateDir, 'threads', 'thread-1.json'), 'utf8')).toBe(
      serializeThreadState(state),
    );
  });

  it('lands every document of threads saved at the same time (their directory fsyncs shared)', async () => {
    const ids = Array.from({ length: 40 }, (_, index) => `thread-${index}`);
    await Promise.all(ids.map((id) => store.save(sampleThreadState(id, 'v1'))));
    await Promise.all(ids.map((id) => store.save(sampleThreadState(id, 'v2'))));
    const restarted = new FileThreadStore(stateDir);
    for (const id of ids) await expect(restarted.load(id)).resolves.toEqual(sampleThreadState(id, 'v2'));
    expect(await threadFiles()).toHaveLength(ids.length);
  });

  it('makes threads/ again when it was removed after the first write', async () => {
    await store.save(sampleThreadState('thread-1'));
    await rm(join(stateDir, 'threads'), { recursive: true });
    await store.save(sampleThreadState('thread-2'));
    expect(await threadFiles()).toEqual(['thread-2.json']);
    expect((await stat(join(stateDir, 'threads'))).mode & 0o777).toBe(0o700);
  });

  it('makes the directories 0700 and the file 0600, even if they existed wider', async () => {
    await chmod(stateDir, 0o755);
    await mkdir(join(stateDir, 'threads'), { mode: 0o777 });
    await chmod(join(stateDir, 'threads'), 0o777);
    await store.save(sampleThreadState('thread-1'));
    const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await modeOf(stateDir)).toBe(0o700);
    expect(await modeOf(join(stateDir, 'threads'))).toBe(0o700);
    expect(await modeOf(store.pathForThread('thread-1'))).toBe(0o600);
  });

  it('uses a readable name for a UUID and a hex name inside threads/ for a path-like id', async () => {
    const uuid = '0b7e4a2c-5f3d-4c1e-9a8b-1234567890ab';
    await store.save(sampleThreadState(uuid));
    await store.save(sampleThreadState('../external/thread'));
    const hex = Buffer.from('../external/thread').toString('hex');
    expect(await threadFiles()).toEqual([`${uuid}.json`, `aguiid~${hex}.json`].sort());
    expect((await readdir(stateDir)).sort()).toEqual(['threads']);
    await expect(store.load('../external/thread')).resolves.toEqual(sampleThreadState('../external/thread'));
  });

  it('keeps Thread-1 and thread-1 in distinct files', async () => {
    await store.save(sampleThreadState('Thread-1', 'upper'));
    await store.save(sampleThreadState('thread-1', 'lower'));
    expect(await threadFiles()).toEqual(['aguiid~5468726561642d31.json', 'thread-1.json']);
    await expect(store.load('Thread-1')).resolves.toEqual(sampleThreadState('Thread-1', 'upper'));
  });

  it.each(['T'.repeat(115), '会话'.repeat(40)])('bounds the name of a long id: %#', async (id) => {
    await store.save(sampleThreadState(id));
    const [name] = await threadFiles();
    expect(name.startsWith('aguihash~')).toBe(true);
    expect(name.length).toBeLessThan(100);
    await expect(store.load(id)).resolves.toEqual(sampleThreadState(id));
  });

  it('keeps distinct long ids in distinct files', async () => {
    await store.save(sampleThreadState('T'.repeat(115), 'a'));
    await store.save(sampleThreadState('T'.repeat(116), 'b'));
    expect(await threadFiles()).toHaveLength(2);
    await expect(store.load('T'.repeat(116))).resolves.toEqual(sampleThreadState('T'.repeat(116), 'b'));
  });

  it('refuses a symlinked state file and leaves its target alone', async () => {
    await store.save(sampleThreadState('thread-0'));
    const outside = join(stateDir, 'outside.json');
    await writeFile(outside, serializeThreadState(sampleThreadState('thread-1')), { mode: 0o644 });
    await chmod(outside, 0o644);
    await symlink(outside, store.pathForThread('thread-1'));
    await expect(store.load('thread-1')).rejects.toMatchObject(STATE_UNAVAILABLE);
    expect((await stat(outside)).mode & 0o777).toBe(0o644);
  });

  it.each([
    {
      name: 'unknown schema version',
      text: JSON.stringify({ ...sampleThreadState('thread-1'), schemaVersion: 999 }),
    },
    { name: "another thread's document", text: serializeThreadState(sampleThreadState('thread-2')) },
    { name: 'truncated JSON', text: serializeThreadState(sampleThreadState('thread-1')).slice(0, 40) },
    { name: 'empty file', text: '' },
  ])('answers STATE_UNAVAILABLE for $name', async ({ text }) => {
    await store.save(sampleThreadState('thread-0'));
    await writeFile(store.pathForThread('thread-1'), text);
    await expect(store.load('thread-1')).rejects.toMatchObject(STATE_UNAVAILABLE);
  });

  it('reads nothing at construction, so a corrupt file cannot stop a new store', async () => {
    await store.save(sampleThreadState('thread-2'));
    await writeFile(join(stateDir, 'threads', 'thread-1.json'), 'not json');
    const restarted = new FileThreadStore(stateDir);
    await expect(restarted.load('thread-2')).resolves.toEqual(sampleThreadState('thread-2'));
    await expect(restarted.load('thread-1')).rejects.toMatchObject(STATE_UNAVAILABLE);
  });

  it('ignores leftover temp files of an interrupted write', async () => {
    await store.save(sampleThreadState('thread-1'));
    await writeFile(join(stateDir, 'threads', '.thread-1.json.0123456789abcdef.tmp'), '{"torn": ');
    await expect(store.load('thread-1')).resolves.toEqual(sampleThreadState('thread-1'));
  });

  it('keeps the old document and removes its temp file when the rename fails', async () => {
    await store.save(sampleThreadState('thread-1', 'v1'));
    // A directory where thread-2's file belongs: rename(file, dir) fails on every attempt.
    await mkdir(store.pathForThread('thread-2'));
    await expect(store.save(sampleThreadState('thread-2'))).rejects.toMatchObject(STATE_UNAVAILABLE);
    expect(await threadFiles()).toEqual(['thread-1.json', 'thread-2.json']);
    expect((await lstat(store.pathForThread('thread-2'))).isDirectory()).toBe(true);
    await expect(store.load('thread-1')).resolves.toEqual(sampleThreadState('thread-1', 'v1'));
  });

  it('is not ready when the state directory cannot be created', async () => {
    await writeFile(join(stateDir, 'blocker'), '');
    const blocked = new FileThreadStore(join(stateDir, 'blocker', 'state'));
    await expect(blocked.checkReady()).rejects.toMatchObject(STATE_UNAVAILABLE);
    await expect(store.checkReady()).resolves.toBeUndefined();
  });

  it.each([
    { file: 'gen-a.json', threadId: 'thread-gen-a', unknownKey: 'legacyAdapterNote' },
    { file: 'gen-b.json', threadId: 'thread-gen-b', unknownKey: 'handoffGeneration' },
  ])(
    'loads the $file fixture and rewrites it with its unknown field intact',
    async ({ file, threadId, unknownKey }) => {
      const original = JSON.parse(await readFile(join(FIXTURES, file), 'utf8'));
      await mkdir(join(stateDir, 'threads'), { recursive: true });
      await writeFile(store.pathForThread(threadId), JSON.stringify(original));
      const loaded = (await store.load(threadId)) as ThreadState;
      await store.save({ ...loaded, runDigests: { ...loaded.runDigests, 'run-9': 'f'.repeat(64) } });
      const rewritten = JSON.parse(await readFile(store.pathForThread(threadId), 'utf8'));
      expect(rewritten[unknownKey]).toEqual(original[unknownKey]);
      expect(rewritten.execution.pending).toEqual(original.execution.pending);
      expect(rewritten.runDigests).toEqual({ ...original.runDigests, 'run-9': 'f'.repeat(64) });
    },
  );

  it('stores no message text or secret of an admitted request (docs/behaviour/state.md#never-stored)', async () => {
    const secrets = [
      'Deploy my secret bucket',
      'sk-llm-key-123',
      'AKIDaccess',
      'akSecretValue',
      'stsTokenValue',
    ];
    const body = JSON.stringify({
      threadId: 'thread-1',
      runId: 'run-1',
      messages: [{ id: 'm1', role: 'user', content: secrets[0] }],
      forwardedProps: {
        iacCode: {
          schemaVersion: 1,
          rosInvocationId: 'invocation-1',
          cwd: '/srv/ws',
          llmApiKey: secrets[1],
          alibabaCloud: { accessKeyId: secrets[2], accessKeySecret: secrets[3], securityToken: secrets[4] },
        },
      },
    });
    const request = {
      threadId: 'thread-1',
      runId: 'run-1',
      digest: canonicalDigest(body),
      cwd: '/srv/ws',
      userId: null,
      rosInvocationId: 'invocation-1',
      isResume: false,
      isThreadBusy: false,
      newExecutionId: 'exec-1',
    };
    const decision = decideAdmission(undefined, request, 0);
    if (decision.kind !== 'admitted') throw new Error(`refused: ${decision.code}`);
    await store.save(decision.state);
    const onDisk = await readFile(store.pathForThread('thread-1'), 'utf8');
    expect(JSON.parse(onDisk).runDigests).toEqual({ 'run-1': canonicalDigest(body) });
    for (const secret of secrets) expect(onDisk).not.toContain(secret);
  });
});
