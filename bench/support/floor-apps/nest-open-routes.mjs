// The open-request floor of bench/floor.ts: what a NestJS + Express route holds while its response stays open,
// for the three shapes a streaming route can take — a handler that returns a Promise settled at the end (and
// writes through @Res()), one that returns an Observable, and an Observable through one pass-through
// interceptor. None of them ever answers. GET /heap answers the V8 heap in use after two full collections
// (run with --expose-gc), after the count of routes opened so far. Plain ESM without a compiler: the decorators are called as functions. Port from argv[2].
import 'reflect-metadata';
import { Controller, Get, Injectable, Module, Post, Res, UseInterceptors } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Observable } from 'rxjs';

class PassThroughInterceptor {
  intercept(_context, next) {
    return new Observable((subscriber) => {
      const subscription = next.handle().subscribe(subscriber);
      return () => subscription.unsubscribe();
    });
  }
}
Injectable()(PassThroughInterceptor);

let opened = 0;
const never = () => {
  opened += 1;
  return new Observable(() => undefined);
};
class OpenRoutesController {
  promise(response) {
    opened += 1;
    response.setHeader('content-type', 'text/event-stream');
    return new Promise(() => undefined);
  }
  observable() {
    return Promise.resolve(never());
  }
  intercepted() {
    return Promise.resolve(never());
  }
  heap() {
    globalThis.gc();
    globalThis.gc();
    return `${opened} ${process.memoryUsage().heapUsed}`;
  }
  health() {
    return 'ok';
  }
}
const method = (name) => Object.getOwnPropertyDescriptor(OpenRoutesController.prototype, name);
Res()(OpenRoutesController.prototype, 'promise', 0);
Post('/promise')(OpenRoutesController.prototype, 'promise', method('promise'));
Post('/observable')(OpenRoutesController.prototype, 'observable', method('observable'));
UseInterceptors(PassThroughInterceptor)(OpenRoutesController.prototype, 'intercepted', method('intercepted'));
Post('/intercepted')(OpenRoutesController.prototype, 'intercepted', method('intercepted'));
Get('/heap')(OpenRoutesController.prototype, 'heap', method('heap'));
Get('/health')(OpenRoutesController.prototype, 'health', method('health'));
Controller()(OpenRoutesController);

class OpenRoutesModule {}
Module({ controllers: [OpenRoutesController], providers: [PassThroughInterceptor] })(OpenRoutesModule);

const app = await NestFactory.create(OpenRoutesModule, { bodyParser: false, logger: false });
await app.listen(Number(process.argv[2]), '127.0.0.1');
