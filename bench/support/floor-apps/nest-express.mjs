// The floor of bench/floor.ts with the framework: NestJS + Express, one controller (POST / writes a one-line
// event stream through @Res(), GET /health), no body parser, no logger, nothing of the gateway. Plain ESM
// without a compiler: the decorators are called as functions. Port from argv[2], on 127.0.0.1.
import 'reflect-metadata';
import { Controller, Get, Module, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

class HelloController {
  hi(response) {
    response.setHeader('content-type', 'text/event-stream');
    response.end('data: hi\n\n');
  }
  health() {
    return 'ok';
  }
}
const method = (name) => Object.getOwnPropertyDescriptor(HelloController.prototype, name);
Res()(HelloController.prototype, 'hi', 0);
Post('/')(HelloController.prototype, 'hi', method('hi'));
Get('/health')(HelloController.prototype, 'health', method('health'));
Controller()(HelloController);

class HelloModule {}
Module({ controllers: [HelloController] })(HelloModule);

const app = await NestFactory.create(HelloModule, { bodyParser: false, logger: false });
await app.listen(Number(process.argv[2]), '127.0.0.1');
