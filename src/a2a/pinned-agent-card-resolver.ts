import type { AgentCard } from '@a2a-js/sdk';
import { type AgentCardResolver, DefaultAgentCardResolver } from '@a2a-js/sdk/client';

/**
 * Fetches the kernel's agent card (with the bearer, `A2A-Version: 1.0`, bounded by `timeoutMs`) and pins
 * its JSON-RPC interface to the configured kernel URL.
 *
 * Why pin: the original posts every call to the configured A2A URL (docs/behaviour/a2a.md#transport) and the kernel serves
 * JSON-RPC on `POST /` of that URL (docs/behaviour/a2a.md#the-kernels-own-behaviour). The URL a kernel writes into its own card
 * reflects how it was bound (`0.0.0.0`, a pod address), which is not always how the gateway reaches it.
 */
export class PinnedAgentCardResolver implements AgentCardResolver {
  private readonly inner: DefaultAgentCardResolver;

  constructor(fetchImpl: typeof fetch, timeoutMs: number) {
    const timedFetch = ((input: string | URL | Request, init?: RequestInit) =>
      fetchImpl(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) })) as typeof fetch;
    this.inner = new DefaultAgentCardResolver({ fetchImpl: timedFetch });
  }

  /** The card already normalised, so it has no `normalizeAgentCard`: the factory takes it as it is. */
  async resolve(baseUrl: string, path?: string): Promise<AgentCard> {
    return pinJsonRpcInterface(await this.inner.resolve(baseUrl, path), baseUrl);
  }
}

/** The card with exactly one JSON-RPC 1.0 interface at `url`, keeping the kernel's tenant if it named one. */
export function pinJsonRpcInterface(card: AgentCard, url: string): AgentCard {
  const declared = (card.supportedInterfaces ?? []).find(
    (candidate) =>
      candidate.protocolBinding.toUpperCase() === 'JSONRPC' && candidate.protocolVersion === '1.0',
  );
  return {
    ...card,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: declared?.tenant ?? '', protocolVersion: '1.0' },
    ],
  };
}
