import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application } from 'express';
import { CLOCK, type Clock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { negotiateLanguage } from '../i18n/negotiate-language';
import type { RouteLayerLike } from './allowed-methods';
import { clientErrorResponse, type ClientError } from './client-error-response';
import { routeFallback } from './route-fallback';

/** The response Node attached to the socket once it had parsed a request (with that request). */
type SocketWithResponse = Duplex & { _httpMessage?: { headersSent?: boolean; req?: { url?: string } } };

/**
 * The edges of the standalone service's HTTP server, which the service owns (a host application that
 * imports AguiGatewayModule keeps its own): no `X-Powered-By`, no ETag, every refusal no controller made
 * (unknown route, wrong method, undecodable path parameter, a request Node's parser refused) in the face's
 * form. Installed in onModuleInit: after Nest has registered every route, before its own not-found and
 * exception layers, which then never see a request.
 */
@Injectable()
export class StandaloneHttpEdge implements OnModuleInit {
  private readonly logger = new Logger(StandaloneHttpEdge.name);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly catalogue: MessageCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as typeof this.adapterHost.httpAdapter | undefined;
    if (!adapter) return; // an application context without HTTP (a script, a test of wiring)
    const app = adapter.getInstance<Application & { router: { stack: RouteLayerLike[] } }>();
    app.disable('x-powered-by');
    app.set('etag', false);
    const fallback = routeFallback({
      routes: () => app.router.stack,
      rendering: () => ({
        catalogue: this.catalogue,
        processLanguage: this.config.processLanguage,
        now: this.clock.now(),
      }),
    });
    app.use(fallback.unmatched);
    app.use(fallback.routingError);
    const server = adapter.getHttpServer() as Server;
    server.on('clientError', (error: ClientError, socket: Duplex) =>
      this.answerClientError(error, socket as SocketWithResponse),
    );
  }

  /** Node's default behaviour, with our body: answer only when no response is under way on the socket. */
  private answerClientError(error: ClientError, socket: SocketWithResponse): void {
    const canAnswer = socket.writable && !socket._httpMessage?.headersSent;
    const parsedPath = socket._httpMessage?.req?.url;
    const response = canAnswer
      ? clientErrorResponse(error, {
          catalogue: this.catalogue,
          language: negotiateLanguage(undefined, this.config.processLanguage),
          now: this.clock.now(),
          ...(parsedPath === undefined ? {} : { parsedPath }),
        })
      : undefined;
    if (response === undefined) {
      socket.destroy();
      return;
    }
    this.logger.log({ msg: 'refused a request the HTTP parser could not accept', code: error.code });
    socket.end(response, () => socket.destroy());
  }
}
