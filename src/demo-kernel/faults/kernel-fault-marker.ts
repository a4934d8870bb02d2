import type { KernelFault } from '../kernel-script';

/**
 * A scripted fault travels from the executor to the transport through the SDK's own event queue, as a
 * status update carrying this metadata key. Riding the queue keeps the order: every frame published
 * before the fault is written before the transport acts on it. The marker frame itself is never written.
 */
export const KERNEL_FAULT_METADATA_KEY = 'x-kernel-server-fault';

/** The fault carried by a JSON-RPC stream envelope (`{jsonrpc, id, result: {statusUpdate}}`), if any. */
export function faultOfEnvelope(envelope: unknown): KernelFault | undefined {
  const result = (envelope as { result?: { statusUpdate?: { metadata?: Record<string, unknown> } } })?.result;
  const fault = result?.statusUpdate?.metadata?.[KERNEL_FAULT_METADATA_KEY];
  if (typeof fault !== 'object' || fault === null) return undefined;
  const kind = (fault as { kind?: unknown }).kind;
  return kind === 'drop' || kind === 'rpc-error' || kind === 'end-stream'
    ? (fault as KernelFault)
    : undefined;
}
