import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

/**
 * `npm run pack:lib` (scripts/pack-library.sh) into `work`: the lib build of this checkout, packed as npm would
 * publish it, the shared checkout's dist/ untouched. Returns the tarball's path and the files it holds.
 */
export function packLibrary(work: string): { tarball: string; files: string[] } {
  const output = execFileSync('bash', [path.join(REPO, 'scripts/pack-library.sh'), work, '--json'], {
    cwd: REPO,
    // Node 24 (this process's) first on PATH, for the script's tsc and npm.
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(output) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(work, packed.filename), files: packed.files.map((file) => file.path) };
}
