import type { BaseEvent } from '@ag-ui/core';
import {
  Controller,
  Injectable,
  Module,
  Post,
  Req,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { finalize, Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../../src/config/app-config';
import { SseRunRenderer, type SseRunItem } from '../../src/http/sse-run-renderer';
import { RunMetrics } from '../../src/metrics/run-metrics';
import { RunDemand } from '../../src/run-log/run-frames';
import { encodeSseFrame } from '../../src/wire/sse-frame';

/** Settles when Nest lets go of the Observable the renderer handed it (completed or unsubscribed). */
let released: Promise<void>;
let release: () => void;
/** Settles when the run's own Observable is unsubscribed (the run's client left). */
let left: Promise<void>;
let leave: () => void;

/** Outside the route: sees what Nest does with the Observable the route returns. */
@Injectable()
class ReleaseRecorder implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(finalize(() => release()));
  }
}

@Controller()
@UseInterceptors(ReleaseRecorder)
class OpenRunController {
  constructor(private readonly sse: SseRunRenderer) {}

  /** A run that streams one frame and never ends on its own, rendered as the run routes render theirs. */
  @Post('run')
  run(@Req() request: Request): Observable<void> {
    const run = new Observable<SseRunItem>((subscriber) => {
      subscriber.next({
        id: '0123456789abcdef.1',
        data: encodeSseFrame({ type: 'RUN_STARTED', threadId: 't', runId: 'r', timestamp: 1 } as BaseEvent),
        demand: new RunDemand(),
      });
      return () => leave();
    });
    return run.pipe(this.sse.render(request));
  }
}

@Module({
  controllers: [OpenRunController],
  providers: [
    ReleaseRecorder,
    SseRunRenderer,
    RunMetrics,
    { provide: APP_CONFIG, useValue: { reattach: { graceMs: 0 } } as AppConfig },
  ],
})
class OpenRunModule {}

/**
 * The rendered Observable does not complete when the client leaves: Nest tears down a route's Observable
 * when its client disconnects (and settles its handling of the request), which releases the renderer's
 * closure over the response with it. This pins that on the Nest the gateway runs on.
 */
describe('SseRunRenderer when the client leaves mid-run', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [OpenRunModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/run`;
  });
  afterAll(() => app.close());

  it("unsubscribes the run, and Nest lets go of the route's Observable", async () => {
    released = new Promise((resolve) => (release = resolve));
    left = new Promise((resolve) => (leave = resolve));
    const client = new AbortController();
    const response = await fetch(url, { method: 'POST', signal: client.signal });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('data: {"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}\n\n');

    client.abort();
    await Promise.all([left, released]);
  });
});
