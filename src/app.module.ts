import { Module } from '@nestjs/common';
import { AguiGatewayModule } from './gateway/agui-gateway.module';
import { PlaygroundModule } from './playground/playground.module';

/**
 * The standalone service: one consumer of AguiGatewayModule (issue #10), configured from the environment,
 * plus the browser playground. Guards and filters sit on the gateway's own controllers.
 */
@Module({
  imports: [AguiGatewayModule.forRoot(), PlaygroundModule],
})
export class AppModule {}
