import type { StreamTarget } from '../client/client-protocol';

/**
 * A RunAgentInput for the gateway: a fresh thread and run per request (`%N%`), the
 * bench plan as the user text, which the gateway forwards as the A2A text part the upstream reads.
 */
export function gatewayTarget(gatewayUrl: string, planText: string, cwd: string): StreamTarget {
  return {
    url: gatewayUrl,
    format: 'agui',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    bodyTemplate: JSON.stringify({
      threadId: 'bench-thread-%N%',
      runId: 'bench-run-%N%',
      state: {},
      messages: [{ id: 'bench-message-%N%', role: 'user', content: planText }],
      tools: [],
      context: [],
      forwardedProps: { iacCode: { schemaVersion: 1, rosInvocationId: 'bench-invocation-%N%', cwd } },
    }),
  };
}

/** The JSON-RPC `SendStreamingMessage` the gateway would send, for the proxy and direct paths. */
export function a2aTarget(url: string, planText: string): StreamTarget {
  return {
    url,
    format: 'a2a',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'A2A-Version': '1.0' },
    bodyTemplate: JSON.stringify({
      jsonrpc: '2.0',
      id: 'bench-request-%N%',
      method: 'SendStreamingMessage',
      params: {
        message: {
          messageId: 'bench-message-%N%',
          role: 'ROLE_USER',
          parts: [{ text: planText }],
          contextId: 'bench-context-%N%',
        },
        configuration: { acceptedOutputModes: ['text/plain'] },
      },
    }),
  };
}
