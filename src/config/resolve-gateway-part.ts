import { Inject, type InjectionToken, type Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import type { GatewayPart } from './gateway-parts';

/**
 * Builds a host-supplied part inside the module that owns its token. `ModuleRef.create` instantiates with
 * dependency injection but registers nothing, so Nest calls the part's lifecycle hooks exactly once: through
 * the owning factory provider that returns it (a second registration would call them twice).
 */
export async function resolveGatewayPart<T>(part: GatewayPart<T>, moduleRef: ModuleRef): Promise<T> {
  if ('useValue' in part) return part.useValue;
  if ('useClass' in part) return moduleRef.create(part.useClass);
  const { dependencies } = await moduleRef.create(dependencyCarrier(part.inject ?? []));
  return part.useFactory(...(dependencies as never[]));
}

/** A throwaway class whose constructor injects `tokens`, so the injector resolves (and loads) them in order. */
function dependencyCarrier(tokens: readonly InjectionToken[]): Type<{ dependencies: unknown[] }> {
  class FactoryDependencies {
    readonly dependencies: unknown[];
    constructor(...dependencies: unknown[]) {
      this.dependencies = dependencies;
    }
  }
  tokens.forEach((token, index) => Inject(token)(FactoryDependencies, undefined, index));
  return FactoryDependencies;
}
