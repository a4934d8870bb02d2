import { ConfigError } from './load-config';

/**
 * What a failed `listen()` on IAC_CODE_AGUI_HOST / IAC_CODE_AGUI_PORT tells the user: the setting to fix and
 * the system's error code, never the value (Node's message and stack carry the host as it was set).
 * Anything else is returned as it came.
 */
export function listenError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || (error as { syscall?: unknown }).syscall === undefined) return error;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError('IAC_CODE_AGUI_PORT: the port is in use on that address (EADDRINUSE).');
    case 'EACCES':
      return new ConfigError(
        'IAC_CODE_AGUI_PORT: not permitted to listen on it (EACCES; ports below 1024 need privileges).',
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `IAC_CODE_AGUI_HOST: not an address of this machine (${code}); use an IP address such as 0.0.0.0 or ::.`,
      );
    default:
      return error;
  }
}
