import type { IncomingMessage } from 'node:http';
import { Inject, Logger } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import { PinoLogger } from 'nestjs-pino';
import type { WebSocket, WebSocketServer } from 'ws';
import { authenticateCaller } from '../auth/authenticate-caller';
import { bearerTokenOf } from '../auth/bearer-token-of';
import {
  REQUEST_AUTHENTICATOR,
  type AuthenticationDecision,
  type RequestAuthenticator,
} from '../auth/request-authenticator';
import { getRequestPrincipal, setRequestPrincipal } from '../auth/request-principal';
import { selectedProtocol, tokenFromProtocols } from '../auth/websocket-protocol-token';
import { BodyBudget } from '../common/body-budget';
import { CLOCK, type Clock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { REQUEST_ID_HEADER, SESSION_ID_HEADER } from '../logging/request-log-fields';
import { RunRequestReader } from '../run-input/run-request-reader';
import { RunService } from '../runs/run.service';
import { wsConnectionContextOf, type WsConnectionContext } from './ws-connection-context';
import { WsRunChannel, type WsRunPort } from './ws-run-channel';

/** Injection token of the path the route is served at (`WsModule.at`). */
export const WS_PATH = Symbol('WS_PATH');

/** The upgrade request, with the connection context the handshake computed once. */
type UpgradeRequest = IncomingMessage & { agentCoreContext?: WsConnectionContext };

/**
 * AgentCore's `/ws` route (docs/behaviour/agentcore.md) on the HTTP
 * server's port, through @nestjs/platform-ws. The handshake is where auth happens, so a refused client
 * gets an HTTP 401 with the challenge (AgentCore: errors before the upgrade are HTTP statuses), never an
 * open socket. Each connection gets a WsRunChannel over the same RunRequestReader and RunService as
 * `POST /invocations`: two transports, one run path.
 */
@WebSocketGateway({ path: '/ws' })
export class AgentCoreWsGateway implements OnGatewayInit<WebSocketServer>, OnGatewayConnection<WebSocket> {
  private readonly logger = new Logger(AgentCoreWsGateway.name);

  constructor(
    private readonly reader: RunRequestReader,
    private readonly runs: RunService,
    @Inject(REQUEST_AUTHENTICATOR) private readonly authenticator: RequestAuthenticator,
    private readonly catalogue: MessageCatalogue,
    private readonly pino: PinoLogger,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WS_PATH) private readonly path: string,
    private readonly budget: BodyBudget,
  ) {}

  /**
   * The decorator's options are static, but auth, the payload cap and the id echo need configuration, so
   * they are set on the ws server here, before it accepts anything (ws reads them on every upgrade).
   */
  afterInit(server: WebSocketServer): void {
    // The decorator's path is static; platform-ws routes an upgrade by the `path` it keeps on the server.
    (server as WebSocketServer & { path?: string }).path = this.path;
    server.options.verifyClient = (info, done) => {
      const request = info.req as UpgradeRequest;
      this.authenticate(request).then(
        (decision) => {
          if (!decision.isAllowed) {
            // The body is the authenticator's own text when it gave one, as on HTTP; plain text either way.
            const headers = {
              'Content-Type': 'text/plain; charset=utf-8',
              ...(decision.challenge ? { 'WWW-Authenticate': decision.challenge } : {}),
            };
            return done(false, 401, decision.message ?? 'Unauthorized', headers);
          }
          // Read back when the connection's context is built: every run of the socket is this caller's.
          setRequestPrincipal(request, decision.principal);
          done(true);
        },
        (error: unknown) => {
          // A failing authenticator refuses the handshake; its text stays in the log, not in the answer.
          this.logger.error({ msg: 'request authenticator failed', error: String(error) });
          done(false, 500, 'Internal Server Error');
        },
      );
    };
    server.options.handleProtocols = (protocols) => selectedProtocol(protocols);
    // The same 12 MiB cap as a POST body; ws closes a larger message with 1009.
    server.options.maxPayload = this.config.maxRequestBytes;
    server.on('headers', (headers: string[], request: UpgradeRequest) => {
      const context = this.contextOf(request);
      headers.push(`${REQUEST_ID_HEADER}: ${context.requestId}`);
      if (context.agentCoreSessionId) headers.push(`${SESSION_ID_HEADER}: ${context.agentCoreSessionId}`);
    });
  }

  handleConnection(socket: WebSocket, request: UpgradeRequest): void {
    const context = this.contextOf(request);
    const bindings = {
      requestId: context.requestId,
      ...(context.agentCoreSessionId ? { agentCoreSessionId: context.agentCoreSessionId } : {}),
    };
    // Every line logged for this socket's runs carries its ids, as pino-http does for HTTP requests.
    const inLogContext = (handler: () => void) => this.pino.runInContext(handler, { bindings });
    inLogContext(() =>
      this.logger.debug({ msg: 'WebSocket connected', closeAfterRun: context.closeAfterRun }),
    );
    new WsRunChannel(socket, context, this.port(), {
      heartbeatMs: this.config.heartbeatMs,
      missedPongLimit: this.config.wsMissedPongLimit,
      catalogue: this.catalogue,
      clock: this.clock,
      logger: this.logger,
      inLogContext,
      wire: request.socket,
      budget: this.budget,
    });
  }

  /** Through REQUEST_AUTHENTICATOR; the token is the bearer header first (server-side clients), else the subprotocol pair. */
  private async authenticate(request: IncomingMessage): Promise<AuthenticationDecision> {
    const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const token = bearerTokenOf(request.headers.authorization) ?? tokenFromProtocols(offered);
    return authenticateCaller(
      this.authenticator,
      {
        transport: 'websocket',
        method: request.method ?? 'GET',
        url: request.url ?? '/ws',
        headers: request.headers,
        ...(token !== undefined ? { bearerToken: token } : {}),
        remoteAddress: request.socket.remoteAddress,
      },
      this.logger,
    );
  }

  private contextOf(request: UpgradeRequest): WsConnectionContext {
    if (request.agentCoreContext) return request.agentCoreContext;
    const context = wsConnectionContextOf(request.url, request.headers, () => this.clock.uuid());
    const principal = getRequestPrincipal(request);
    request.agentCoreContext = principal === undefined ? context : { ...context, principal };
    return request.agentCoreContext;
  }

  private port(): WsRunPort {
    return {
      languageOf: (body, acceptLanguage) => this.reader.languageOf(body, acceptLanguage),
      toRunRequest: (body, origin) => this.reader.toRunRequest(body, origin),
      admit: (request) => this.runs.admit(request),
      events: (run) => this.runs.events(run),
    };
  }
}
