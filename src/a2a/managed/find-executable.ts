import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * The first executable file called `name` on `pathVariable` (the PATH the child will inherit, from
 * AppConfig.childEnvironment, not the gateway's own process.env), or undefined.
 */
export async function findExecutable(
  name: string,
  pathVariable: string | undefined,
  delimiter: string = path.delimiter,
): Promise<string | undefined> {
  for (const directory of (pathVariable ?? '').split(delimiter).filter(Boolean)) {
    const candidate = path.join(directory, name);
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}
