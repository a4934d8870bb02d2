/**
 * Which A2A kernel the gateway talks to, for /health and logs (docs/architecture.md#decisions,
 * IAC_CODE_AGUI_UPSTREAM). `url` always ends with `/` (docs/behaviour/a2a.md#transport: the A2A URL is normalised).
 */
export const A2A_UPSTREAM = Symbol('A2A_UPSTREAM');

/** `custom`: a host replaced the A2A gateway (AguiGatewayModule options), so the gateway started nothing. */
export type UpstreamKind = 'url' | 'managed' | 'demo' | 'custom';

export interface UpstreamDescriptor {
  readonly kind: UpstreamKind;
  readonly url: string;
}

/** A started upstream: where it is, the bearer it wants, and how to stop what the gateway started. */
export interface RunningUpstream {
  readonly descriptor: UpstreamDescriptor;
  /** Bearer token for every kernel route, `/health` and the agent card included; never logged. */
  readonly token?: string;
  stop(): Promise<void>;
}

/** docs/behaviour/a2a.md#transport: every call goes to the A2A URL normalised to end with `/`. */
export function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * The started upstream inside A2aModule. Not exported by the module; exported here so a test that
 * imports A2aModule can replace it (`overrideProvider(RUNNING_UPSTREAM)`) instead of starting a kernel.
 */
export const RUNNING_UPSTREAM = Symbol('RUNNING_UPSTREAM');

/** The upstream of a replaced A2A gateway: nothing started, nothing to stop, no URL of ours. */
export const CUSTOM_UPSTREAM: RunningUpstream = Object.freeze({
  descriptor: Object.freeze({ kind: 'custom' as const, url: '' }),
  stop: () => Promise.resolve(),
});
