/**
 * The client half of the gateway (`agui-a2a-gateway/client`): needs `@ag-ui/client` 1.x, which the
 * server entry point does not.
 */
export {
  ReattachingHttpAgent,
  GatewayRefusalError,
  type ReattachingHttpAgentConfig,
  type ReattachPolicy,
} from './reattaching-http-agent.js';
export { cancelExecution, type CancelAnswer, type ExecutionToCancel } from './cancel-execution.js';
