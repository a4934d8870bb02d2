import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const SERVICE_IDENTITY = Symbol('SERVICE_IDENTITY');

export interface ServiceIdentity {
  /** The `@ag-ui/core` version in use, as the original reports its ag-ui package version. */
  readonly protocolPackageVersion: string;
  readonly serverVersion: string;
}

function packageVersion(packageJsonPath: string): string {
  return (JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { version: string }).version;
}

/** Read once at boot from the installed packages, so /health never drifts from what actually runs. */
export function readServiceIdentity(): ServiceIdentity {
  return {
    protocolPackageVersion: packageVersion(require.resolve('@ag-ui/core/package.json')),
    serverVersion: packageVersion(path.join(__dirname, '..', '..', 'package.json')),
  };
}
