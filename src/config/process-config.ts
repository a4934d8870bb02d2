import * as os from 'node:os';
import * as path from 'node:path';
import type { AppConfig } from './app-config';
import { loadConfig } from './load-config';

/** The configuration of this process: its environment and host facts (the one reader of process.env). */
export function loadProcessConfig(): AppConfig {
  return loadConfig(process.env, {
    cwd: process.cwd(),
    homeDir: os.homedir(),
    tmpDir: os.tmpdir(),
    pathDelimiter: path.delimiter,
    isTty: Boolean(process.stdout.isTTY),
  });
}
