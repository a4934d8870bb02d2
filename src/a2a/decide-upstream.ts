import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/load-config';
import { withTrailingSlash } from './upstream';

/** What to start, decided from configuration and one fact about the host (is `iac-code` on PATH). */
export type UpstreamPlan =
  | { readonly kind: 'url'; readonly url: string; readonly token?: string }
  | { readonly kind: 'managed'; readonly executable: string }
  | { readonly kind: 'demo' };

/** The refusal names only what this build can start: a production build holds no demo agent. */
export const NO_UPSTREAM_MESSAGE =
  'IAC_CODE_AGUI_UPSTREAM=auto found no A2A kernel: set IAC_CODE_AGUI_A2A_URL to an A2A kernel, ' +
  'or put the iac-code executable on PATH so the gateway can run `iac-code a2a` itself.';
export const NO_UPSTREAM_DEMO_HINT = ' This build also holds the demo agent: IAC_CODE_AGUI_UPSTREAM=demo.';

/**
 * docs/architecture.md#decisions IAC_CODE_AGUI_UPSTREAM: `demo` → embedded demo agent; `auto` → the configured URL
 * (loopback already enforced by loadConfig unless allowRemote), else a managed child when the executable
 * was found, else refuse to start naming the options this build has (`hasDemo`: a demo entry point registered
 * the demo agent). Pure: the PATH lookup happens before.
 */
export function decideUpstream(
  upstream: AppConfig['upstream'],
  iacCodeExecutable: string | undefined,
  hasDemo = false,
): UpstreamPlan {
  if (upstream.mode === 'demo') return { kind: 'demo' };
  if (upstream.a2aUrl) {
    return { kind: 'url', url: withTrailingSlash(upstream.a2aUrl), token: upstream.a2aToken };
  }
  if (iacCodeExecutable) return { kind: 'managed', executable: iacCodeExecutable };
  throw new ConfigError(hasDemo ? NO_UPSTREAM_MESSAGE + NO_UPSTREAM_DEMO_HINT : NO_UPSTREAM_MESSAGE);
}
