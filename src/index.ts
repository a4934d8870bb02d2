/**
 * The public API of agui-a2a-gateway as a library (docs/extending.md "Extending"). Everything exported here
 * follows semantic versioning; anything else under src/ is internal and may change in any release.
 */

// The module and its options.
export { AguiGatewayModule } from './gateway/agui-gateway.module';
export type { MessageKey } from './i18n/message-key';
export type { AguiGatewayModuleExtras, AguiGatewayOptions } from './gateway/agui-gateway-options';
export type { GatewaySettings } from './config/gateway-config';
export type { GatewayPart } from './config/gateway-parts';
export type { GatewayParts } from './gateway/gateway-parts';

// Configuration.
export { APP_CONFIG, type AppConfig, type PrincipalUserIdRule, type UpstreamMode } from './config/app-config';
export type { AppConfigOverrides } from './config/merge-config';
export { ConfigError } from './config/load-config';

// Replaceable parts: token, interface, and the defaults worth composing with.
export {
  REQUEST_AUTHENTICATOR,
  type AuthenticationDecision,
  type AuthenticationRequest,
  type RequestAuthenticator,
} from './auth/request-authenticator';
export { THREAD_STORE, ThreadStoreNotReadyError, type ThreadStore } from './threads/thread-store';
export {
  THREAD_CLUSTER,
  type ThreadCluster,
  type ThreadClusterLock,
  type ThreadWriteCondition,
  type ThreadWriteOutcome,
  type VersionedThread,
} from './threads/thread-cluster';
export { serializeThreadState, validateThreadState } from './threads/thread-state';
export { mayActOnThread } from './threads/thread-access';
export type { ThreadExecution, ThreadState } from './threads/thread-state';
export type {
  AppliedResumeDigest,
  PendingInterruptEntry,
  PersistedInput,
} from './interrupts/pending-interrupt';
export { A2A_GATEWAY, type A2aGateway } from './a2a/a2a-gateway';
export type { A2aFrame, A2aOutgoingMessage, A2aPart } from './wire/a2a-wire';
export { CLOCK, SystemClock, type Clock } from './common/clock';
export {
  RUN_EVENT_HOOKS,
  type RunEventHook,
  type RunHookContext,
  type RunOutcomeReport,
} from './runs/run-event-hook';
export { RUN_EVENT_OPERATORS, type RunEventOperator } from './runs/run-event-operator';
export type { Face } from './run-input/run-request';

// The WebSocket adapter /ws needs: quiet about client garbage, a 1001 close at shutdown.
export { GatewayWsAdapter } from './ws/gateway-ws-adapter';

// Errors: one code enum for every face, its HTTP statuses, the one error class.
export { ErrorCode, HTTP_STATUS_BY_CODE } from './common/error-code';
export { AguiError, isAguiError } from './common/agui-error';

// Request and event types.
export type {
  AlibabaCloudCredentials,
  ContentPart,
  IacCodeProps,
  IacCodeThinking,
  Message,
  RunAgentInput,
} from './run-input/parse-run-input';
export type { ResumeEntry, Tool, Context } from './run-input/run-agent-input';
export { EventType, type BaseEvent, type RunErrorEvent, type RunFinishedEvent } from '@ag-ui/core';
