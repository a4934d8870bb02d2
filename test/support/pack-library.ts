import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

/**
 * `npm pack` of this checkout as npm would publish it: the lib build goes to a staging copy next to what the
 * package ships besides (README, LICENSE, CONTRIBUTING, docs), so the shared checkout's dist/ is not touched.
 * Returns the tarball's path and the files it holds.
 */
export function packLibrary(work: string): { tarball: string; files: string[] } {
  const staging = path.join(work, 'staging');
  mkdirSync(staging);
  const run = (command: string, args: string[], cwd: string) =>
    execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const tsc = (project: string, outDir: string) =>
    run(
      process.execPath,
      [
        path.join(REPO, 'node_modules/typescript/bin/tsc'),
        '-p',
        path.join(REPO, project),
        '--outDir',
        outDir,
      ],
      REPO,
    );
  tsc('tsconfig.lib.json', path.join(staging, 'dist'));
  // The client's ESM build, as `npm run build:lib` makes it.
  tsc('tsconfig.client-esm.json', path.join(staging, 'dist/client/esm'));
  run(process.execPath, [path.join(REPO, 'scripts/mark-client-esm.mjs'), path.join(staging, 'dist')], REPO);
  for (const file of ['package.json', 'README.md', 'LICENSE', 'CONTRIBUTING.md'])
    copyFileSync(path.join(REPO, file), path.join(staging, file));
  cpSync(path.join(REPO, 'docs'), path.join(staging, 'docs'), { recursive: true });
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], staging),
  ) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(work, packed.filename), files: packed.files.map((file) => file.path) };
}
