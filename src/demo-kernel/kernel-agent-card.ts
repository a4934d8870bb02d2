import { A2A_PROTOCOL_VERSION, AgentCard } from '@a2a-js/sdk';

/**
 * The scripted kernel's agent card: streaming, and one JSON-RPC interface at the server URL, which the
 * SDK client calls instead of the base URL it fetched the card from (docs/behaviour/a2a.md#sdk-notes).
 */
export function buildKernelAgentCard(url: string): AgentCard {
  return AgentCard.fromJSON({
    name: 'iac-code (scripted)',
    description: 'A scripted stand-in for the iac-code A2A kernel: demo turns and failure scripts.',
    version: '1.0.0',
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'iac-code',
        name: 'Infrastructure as code',
        description: 'Answers infrastructure-as-code questions with a scripted turn.',
        tags: ['iac', 'ros'],
        examples: ['Create a VPC with one vSwitch'],
      },
    ],
  });
}
