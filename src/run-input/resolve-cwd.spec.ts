import { mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { MAX_CWD_BYTES, MAX_CWD_COMPONENTS, resolveCwd } from './resolve-cwd';

/**
 * Layout, under a fresh temp dir `base` (realpath'd):
 *   root/ (the allowed root): existing/, home/ (the `~`), file.txt,
 *     link-in → root/existing, link-out → outside, dangling → outside/missing, loop-a ⇄ loop-b
 *   outside/ (not a root), root-alias → root, root-evil/ (shares root's prefix)
 */
let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'resolve-cwd-')));
  root = path.join(base, 'root');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'existing'), { recursive: true });
  await mkdir(path.join(root, 'home'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(root, 'file.txt'), 'not a directory');
  await symlink(path.join(root, 'existing'), path.join(root, 'link-in'));
  await symlink(outside, path.join(root, 'link-out'));
  await symlink(path.join(outside, 'missing'), path.join(root, 'dangling'));
  await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
  await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
  await symlink(root, path.join(base, 'root-alias'));
  await mkdir(path.join(base, 'root-evil'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const resolveIn = (cwd: string, roots = [root], env: Record<string, string> = {}) =>
  resolveCwd(cwd, roots, path.join(root, 'home'), env);

async function failureKey(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AguiError && error.code === ErrorCode.INVALID_INPUT) return error.messageKey;
    throw error;
  }
  throw new Error('expected the workspace to be refused');
}

describe('resolveCwd: accepted workspaces', () => {
  it.each([
    {
      name: 'an existing directory inside the root',
      cwd: () => `${root}/existing`,
      expected: () => `${root}/existing`,
    },
    { name: 'the root itself', cwd: () => root, expected: () => root },
    { name: 'a trailing slash', cwd: () => `${root}/existing/`, expected: () => `${root}/existing` },
    {
      name: 'dot segments, normalised',
      cwd: () => `${root}/x/../existing/.`,
      expected: () => `${root}/existing`,
    },
    {
      name: 'a symlink inside the root, resolved',
      cwd: () => `${root}/link-in`,
      expected: () => `${root}/existing`,
    },
    { name: '~ expanded with the given home', cwd: () => '~', expected: () => `${root}/home` },
    {
      name: '~/ expanded with the given home',
      cwd: () => '~/existing-too',
      expected: () => `${root}/home/existing-too`,
    },
  ])('$name', async ({ cwd, expected }) => {
    await expect(resolveIn(cwd())).resolves.toBe(expected());
  });

  it('expands $VAR and ${VAR} from the given environment, leaving unknown ones as written', async () => {
    const env = { PROJECT: 'proj', TEAM: 'ops' };
    await expect(resolveIn(`${root}/$PROJECT/\${TEAM}/$UNKNOWN`, [root], env)).resolves.toBe(
      `${root}/proj/ops/$UNKNOWN`,
    );
  });

  it('accepts a root given through a symlink (roots are resolved)', async () => {
    await expect(resolveIn(`${root}/existing`, [path.join(base, 'root-alias')])).resolves.toBe(
      `${root}/existing`,
    );
  });

  it('keeps only the roots that are existing directories', async () => {
    const roots = [path.join(base, 'nope'), `${root}/file.txt`, '', root];
    await expect(resolveIn(`${root}/existing`, roots)).resolves.toBe(`${root}/existing`);
  });

  it('resolves links again once a link target climbs back out of a missing directory', async () => {
    // The input is normalised first, so only a link target can hold `missing/..`.
    await symlink('missing-dir/../link-in', path.join(root, 'via-missing'));
    await expect(resolveIn(`${root}/via-missing`)).resolves.toBe(`${root}/existing`);
  });

  it('accepts a path at both limits', async () => {
    const components = MAX_CWD_COMPONENTS - root.split('/').filter(Boolean).length;
    const cwd = `${root}/${Array.from({ length: components }, () => 'd').join('/')}`;
    await expect(resolveIn(cwd)).resolves.toBe(cwd);
  });

  it('creates a missing workspace with its parents, mode 0700', async () => {
    const cwd = `${root}/new/deeper/workspace`;
    await expect(resolveIn(cwd)).resolves.toBe(cwd);
    const created = await stat(cwd);
    expect(created.isDirectory()).toBe(true);
    expect(created.mode & 0o777).toBe(0o700);
    expect((await stat(`${root}/new`)).mode & 0o777).toBe(0o700);
  });
});

describe('resolveCwd: refused workspaces', () => {
  it.each([
    { name: 'empty', cwd: () => '', key: 'cwdNotAbsolute' },
    { name: 'relative', cwd: () => 'workspace', key: 'cwdNotAbsolute' },
    { name: '~user (only the current user is expanded)', cwd: () => '~someone/ws', key: 'cwdNotAbsolute' },
    {
      name: '$VAR at the start (absoluteness is checked before variables)',
      cwd: () => '$ROOT/x',
      key: 'cwdNotAbsolute',
    },
    { name: 'a NUL byte', cwd: () => `${root}/a\0b`, key: 'cwdInvalid' },
    { name: 'a symlink loop', cwd: () => `${root}/loop-a/ws`, key: 'cwdInvalid' },
    { name: 'outside every root', cwd: () => outside, key: 'cwdOutsideRoots' },
    { name: 'escaping with ..', cwd: () => `${root}/../outside`, key: 'cwdOutsideRoots' },
    { name: 'a sibling sharing the root prefix', cwd: () => `${root}-evil`, key: 'cwdOutsideRoots' },
    { name: 'a symlink escape', cwd: () => `${root}/link-out`, key: 'cwdOutsideRoots' },
    {
      name: 'a missing path under a symlink escape',
      cwd: () => `${root}/link-out/new`,
      key: 'cwdOutsideRoots',
    },
    { name: 'a dangling symlink pointing outside', cwd: () => `${root}/dangling`, key: 'cwdOutsideRoots' },
    { name: 'a file, not a directory', cwd: () => `${root}/file.txt`, key: 'cwdNotDirectory' },
    { name: 'under a file (cannot be created)', cwd: () => `${root}/file.txt/child`, key: 'cwdCannotCreate' },
    {
      name: 'one component over the limit',
      cwd: () => `${root}/${'c/'.repeat(MAX_CWD_COMPONENTS)}`,
      key: 'cwdTooLong',
    },
    { name: '32,000 components', cwd: () => `${root}/${'c/'.repeat(32_000)}`, key: 'cwdTooLong' },
    {
      name: 'one byte over the limit',
      cwd: () => `${root}/${'é'.repeat(MAX_CWD_BYTES / 2)}`,
      key: 'cwdTooLong',
    },
    {
      name: 'dot components count too',
      cwd: () => `${root}${'/.'.repeat(MAX_CWD_COMPONENTS)}`,
      key: 'cwdTooLong',
    },
    {
      name: 'a variable that expands past the limit',
      cwd: () => `${root}/$LONG/$LONG`,
      key: 'cwdTooLong',
    },
  ])('$name → $key', async ({ cwd, key }) => {
    await expect(
      failureKey(resolveIn(cwd(), [root], { ROOT: root, LONG: 'l'.repeat(MAX_CWD_BYTES / 2) })),
    ).resolves.toBe(key);
  });

  it('creates nothing for a path over the limits', async () => {
    const cwd = `${root}/too-deep/${'c/'.repeat(MAX_CWD_COMPONENTS)}`;
    await expect(failureKey(resolveIn(cwd))).resolves.toBe('cwdTooLong');
    await expect(stat(`${root}/too-deep`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses everything when no root exists', async () => {
    await expect(failureKey(resolveIn(`${root}/existing`, [path.join(base, 'nope')]))).resolves.toBe(
      'cwdOutsideRoots',
    );
  });

  it('creates nothing outside the roots', async () => {
    await expect(failureKey(resolveIn(`${root}/link-out/should-not-exist`))).resolves.toBe('cwdOutsideRoots');
    await expect(stat(`${outside}/should-not-exist`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
