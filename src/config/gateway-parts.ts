import type { InjectionToken, Type } from '@nestjs/common';

/**
 * The token under which the replacement parts a host supplies to `AguiGatewayModule.forRoot` (CONTRIBUTING.md)
 * reach the feature modules; each feature declares the parts it owns (`AuthParts`, `ThreadsParts`, …) and
 * `GatewayParts` (src/gateway) is their union. Each part is described, not registered: the module that owns the token builds it in its own factory (see
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
