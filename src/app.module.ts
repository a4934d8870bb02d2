import { Module } from '@nestjs/common';
import { AguiGatewayModule } from './gateway/agui-gateway.module';
import { StandaloneHttpEdgeModule } from './http/standalone-http-edge.module';
import { PlaygroundModule } from './playground/playground.module';

/**
 * The standalone service: one consumer of AguiGatewayModule, configured from the environment, plus the
 * browser playground and the HTTP server's edges (unknown routes, wrong methods, parser refusals, headers),
 * which only the owner of the server may set. Guards and filters sit on the gateway's own controllers. The
 * process is its own, so it asks for the memory reclaimer (it runs when node is started with --expose-gc).
 */
@Module({
  imports: [
    AguiGatewayModule.forRoot({ config: { memoryReclaimer: true } }),
    PlaygroundModule,
    StandaloneHttpEdgeModule,
  ],
})
export class AppModule {}
