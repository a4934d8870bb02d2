import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import { controllerRoutes } from '../common/controller-routes';
import { CancelController } from './cancel.controller';
import { GATEWAY_ROUTE_PREFIX } from './gateway-route-prefix';
import {
  mountPointOf,
  ownBodyRoutes,
  passGatewayRoutes,
  type MiddlewareLayerLike,
} from './host-body-parsers';
import { RunsController } from './runs.controller';

/**
 * A host that keeps Nest's body parser on (or adds `express.json()`) must not take the gateway's request
 * checks away (docs/embedding.md#body-parsers): in onModuleInit, after Nest registered its parsers and
 * before the first request, every body parser on the router is told to pass the run and cancel routes.
 */
@Injectable()
export class HostBodyParserShield implements OnModuleInit {
  private readonly logger = new Logger(HostBodyParserShield.name);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(GATEWAY_ROUTE_PREFIX) private readonly prefix: string,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as typeof this.adapterHost.httpAdapter | undefined;
    const app = adapter?.getInstance<Partial<Application> & { router?: { stack?: MiddlewareLayerLike[] } }>();
    const stack = app?.router?.stack;
    if (!Array.isArray(stack)) return; // no HTTP server, or not Express
    const [cancelPath] = controllerRoutes(CancelController).map((route) => route.path);
    const paths = [...controllerRoutes(RunsController).map((route) => route.path), cancelPath];
    const mountPoint = mountPointOf(stack, this.prefix, cancelPath);
    const wrapped = passGatewayRoutes(stack, ownBodyRoutes(paths, mountPoint));
    if (wrapped > 0)
      this.logger.log({
        msg: "the host's body parsers pass the gateway's run and cancel routes",
        parsers: wrapped,
      });
  }
}
