import { Module, type DynamicModule } from '@nestjs/common';
import { AguiGatewayModule, type GatewaySettings } from 'agui-a2a-gateway';
import { AuditLogHook } from './audit-log-hook';
import { EchoController } from './echo.controller';
import { IngressIdentityAuthenticator } from './ingress-identity-authenticator';

/** Where the AG-UI routes live in this host: `POST /agents/iac`, `GET /agents/iac/health`, … */
export const AGENT_ROUTE_PREFIX = '/agents/iac';

export interface HostAppOptions extends GatewaySettings {
  /** The audit log file: one JSON line per run outcome. */
  readonly auditLogPath: string;
}

/**
 * A platform team's Nest application: its own routes, plus the AG-UI gateway mounted under a prefix with
 * the team's authentication and an audit hook (docs/embedding.md).
 */
@Module({})
export class HostAppModule {
  static register(options: HostAppOptions): DynamicModule {
    return {
      module: HostAppModule,
      imports: [
        AguiGatewayModule.forRoot({
          routePrefix: AGENT_ROUTE_PREFIX,
          webSocket: { path: `${AGENT_ROUTE_PREFIX}/ws` },
          environment: options.environment,
          config: options.config,
          authenticator: { useClass: IngressIdentityAuthenticator },
          eventHooks: [{ useValue: new AuditLogHook(options.auditLogPath) }],
        }),
      ],
      controllers: [EchoController],
    };
  }
}
