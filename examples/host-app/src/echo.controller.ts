import { Body, Controller, HttpCode, Post } from '@nestjs/common';

/**
 * A route of the host application itself: no token, no validation, Nest's own body parser. The gateway's
 * auth, body reading and error filters must not reach it.
 */
@Controller('host')
export class EchoController {
  @Post('echo')
  @HttpCode(200)
  echo(@Body() body: unknown): { received: unknown } {
    return { received: body };
  }
}
