import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';

/** `GET /playground/config.json`: what the page needs to start. Open route: nothing secret goes in it. */
export interface PlaygroundPageConfig {
  /** A workspace the gateway accepts as `forwardedProps.iacCode.cwd`. */
  readonly defaultCwd: string;
  /** Whether the page should ask for a bearer token before the first run. */
  readonly authRequired: boolean;
}

const WORKSPACE_NAME = 'agui-playground';

function isInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * `<tmp>/agui-playground` when the temp dir is inside an allowed root (the default roots are the process
 * cwd and the temp dir, docs/behaviour/run-input.md#cwd), so trying the page never writes into the project; otherwise a
 * folder under the first allowed root. Pure: the temp dir comes in as an argument.
 */
export function defaultWorkspace(allowedCwdRoots: readonly string[], tmpDir: string): string {
  const root =
    allowedCwdRoots.length === 0 || allowedCwdRoots.some((candidate) => isInside(tmpDir, candidate))
      ? tmpDir
      : allowedCwdRoots[0];
  return path.join(root, WORKSPACE_NAME);
}

export function buildPlaygroundPageConfig(config: AppConfig, tmpDir: string): PlaygroundPageConfig {
  return {
    defaultCwd: defaultWorkspace(config.allowedCwdRoots, tmpDir),
    authRequired: config.authToken !== undefined || config.jwt.issuer !== undefined,
  };
}
