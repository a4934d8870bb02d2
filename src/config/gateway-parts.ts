import type { InjectionToken, Type } from '@nestjs/common';
import type { A2aGateway } from '../a2a/a2a-gateway';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import type { Clock } from '../common/clock';
import type { RunEventHook } from '../runs/run-event-hook';
import type { ThreadStore } from '../threads/thread-store';

/**
 * The replacement parts a host supplies to `AguiGatewayModule.forRoot` (CONTRIBUTING.md). Each is
 * described, not registered: the module that owns the token builds it in its own factory (see
 * resolveGatewayPart), so a replaced default is never constructed (no demo kernel, no Redis connection).
 */
export const GATEWAY_PARTS = Symbol('GATEWAY_PARTS');

/**
 * How to build one part, in the style of a Nest provider. `useClass` is constructed by dependency injection
 * in the context of the gateway module that owns the token: its constructor may inject the gateway's
 * tokens (APP_CONFIG, CLOCK, …) and any provider of a global module. `useFactory` gets `inject` resolved
 * the same way. To reach a host provider of a non-global module, use `forRootAsync` with `imports`/`inject`
 * and hand the instance over as `useValue`.
 */
export type GatewayPart<T> =
  | { readonly useValue: T }
  | { readonly useClass: Type<T> }
  | {
      readonly useFactory: (...dependencies: never[]) => T | Promise<T>;
      readonly inject?: readonly InjectionToken[];
    };

export interface GatewayParts {
  /** Decides whether an HTTP request or a WebSocket handshake may use the AG-UI routes. Default: bearer/JWT. */
  readonly authenticator?: GatewayPart<RequestAuthenticator>;
  /** Durable thread state. Default: files, or Redis when IAC_CODE_AGUI_STATE_STORE=redis. */
  readonly threadStore?: GatewayPart<ThreadStore>;
  /** The A2A side of a run. Default: the @a2a-js/sdk client over the configured upstream (none is started when replaced). */
  readonly a2aGateway?: GatewayPart<A2aGateway>;
  /** Time and ids. Default: the system clock and random UUIDs. */
  readonly clock?: GatewayPart<Clock>;
  /** Observers of every AG-UI event and run outcome, called in order; their failures are logged, never sent. */
  readonly eventHooks?: readonly GatewayPart<RunEventHook>[];
}
