import * as os from 'node:os';
import * as path from 'node:path';
import type { AppConfig } from './app-config';
import { loadConfig } from './load-config';
import { mergeConfig, type AppConfigOverrides } from './merge-config';

/** Where the settings of `AguiGatewayModule.forRoot` come from (docs/extending.md "Extending"). */
export interface GatewaySettings {
  /**
   * The variables of docs/architecture.md#decisions (same names, same validation, same defaults). `'process'`
   * (the default) reads `process.env`, as the standalone service does; an object is read instead of
   * `process.env`, so `{}` means "defaults only" and no environment variable is consulted.
   */
  readonly environment?: 'process' | Readonly<Record<string, string | undefined>>;
  /** Typed settings merged over what `environment` gives (groups such as `upstream` merge key by key). */
  readonly config?: AppConfigOverrides;
}

/** The gateway's AppConfig for a host: environment (or an object standing in for it), then overrides. */
export function loadGatewayConfig(settings: GatewaySettings = {}): AppConfig {
  const { environment = 'process' } = settings;
  const env = environment === 'process' ? process.env : environment;
  const base = loadConfig(env, {
    cwd: process.cwd(),
    homeDir: os.homedir(),
    tmpDir: os.tmpdir(),
    pathDelimiter: path.delimiter,
    isTty: environment === 'process' && Boolean(process.stdout.isTTY),
  });
  return mergeConfig(base, settings.config);
}
