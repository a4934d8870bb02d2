import type { ServerResponse } from 'node:http';
import { STREAMING_METHODS, type InjectedFault } from './kernel-fault-injector';
import { formatKernelDataFrame, KERNEL_SSE_HEADERS } from '../kernel-sse-frames';
import { writeJson } from '../kernel-sse-writer';

/**
 * Answers a call with an armed fault instead of serving it: `http-500` as the `http-500` script does,
 * `rpc-error` as the kernel reports a rejection (an SSE frame with HTTP 200 on a streaming method, a
 * JSON-RPC error body otherwise — docs/behaviour/a2a.md#the-kernels-own-behaviour), `empty-stream` as headers and no frame;
 * after the fault's `delayMs`.
 */
export async function writeInjectedFault(
  response: ServerResponse,
  fault: InjectedFault,
  requestId: unknown,
): Promise<void> {
  if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  const envelope = { jsonrpc: '2.0', id: requestId, error: fault.error };
  const isStreaming = STREAMING_METHODS.includes(fault.method);
  if (fault.mode === 'http-500') {
    return writeJson(response, 500, {
      jsonrpc: '2.0',
      id: requestId,
      error: { code: -32603, message: 'Internal error' },
    });
  }
  if (fault.mode === 'rpc-error' && !isStreaming) return writeJson(response, 200, envelope);
  response.writeHead(200, KERNEL_SSE_HEADERS);
  response.end(fault.mode === 'rpc-error' ? formatKernelDataFrame(envelope) : undefined);
}
