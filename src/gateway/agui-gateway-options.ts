import type { GatewaySettings } from '../config/gateway-config';
import type { GatewayParts } from './gateway-parts';

/**
 * What `AguiGatewayModule.forRoot(options)` takes, or what the `useFactory` of `forRootAsync` returns
 * (docs/extending.md "Extending"): where the settings come from (`environment`, `config`) and the replaced parts
 * (`authenticator`, `threadStore`, `a2aGateway`, `clock`, `eventHooks`, `eventOperators`). `forRoot()` with nothing is the
 * standalone service: settings from process.env, every default part.
 */
export interface AguiGatewayOptions extends GatewaySettings, GatewayParts {}

/** Options that shape the module graph, so they are given synchronously, also to `forRootAsync`. */
export interface AguiGatewayModuleExtras {
  /**
   * Mount the HTTP routes under this path (e.g. `/agents/iac` → `POST /agents/iac`,
   * `GET /agents/iac/health`), with Nest's RouterModule. The AgentCore `/ws` path is not prefixed: it is
   * fixed when the WebSocket server is created.
   */
  readonly routePrefix?: string;
  /**
   * AgentCore's WebSocket route (docs/embedding.md#websocket): `{ path }` serves it at exactly that path
   * (default `/ws`; neither `routePrefix` nor the host's `app.setGlobalPrefix` applies to it) and needs `app.useWebSocketAdapter(new GatewayWsAdapter(app))`; `false`
   * leaves it out, so a host on another WebSocket adapter (socket.io) or without WebSockets needs none.
   */
  readonly webSocket?: false | { readonly path?: string };
}
