import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { isAguiError } from '../common/agui-error';
import { RunTracer } from '../tracing/run-tracer';
import { RunMetrics } from './run-metrics';

/** The span outcome of a failed call: the gateway's error code when it has one. */
function failureOutcome(error: unknown): string {
  return isAguiError(error) ? error.code : 'error';
}

/**
 * Times and traces the A2A upstream calls : a span per call, a child of the active run span,
 * whose W3C headers the call sends (the SDK's `serviceParameters` become HTTP headers), and the
 * `agui_gateway_a2a_call_duration_seconds` histogram.
 */
@Injectable()
export class A2aCallObserver {
  constructor(
    private readonly metrics: RunMetrics,
    private readonly tracer: RunTracer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** A unary call (CancelTask, GetTask, SendMessage): timed to its answer. */
  async call<T>(method: string, send: (traceHeaders: Record<string, string>) => Promise<T>): Promise<T> {
    const span = this.tracer.startA2aSpan(method);
    const started = this.clock.now();
    try {
      const result = await send(span.traceHeaders());
      this.metrics.observeA2aCall(method, (this.clock.now() - started) / 1000, true);
      span.end('ok');
      return result;
    } catch (error) {
      this.metrics.observeA2aCall(method, (this.clock.now() - started) / 1000, false);
      span.end(failureOutcome(error));
      throw error;
    }
  }

  /**
   * A streaming call (SendStreamingMessage, SubscribeToTask): the latency is to the first frame (a turn
   * lasts as long as the agent works, which is no upstream latency); the span lasts the whole stream.
   * A stream that ends or fails before any frame counts as a failed call.
   */
  async *stream<T>(
    method: string,
    open: (traceHeaders: Record<string, string>) => AsyncIterable<T>,
  ): AsyncIterable<T> {
    const span = this.tracer.startA2aSpan(method);
    const started = this.clock.now();
    let timed = false;
    const time = (ok: boolean) => {
      if (timed) return;
      timed = true;
      this.metrics.observeA2aCall(method, (this.clock.now() - started) / 1000, ok);
    };
    let outcome = 'ok';
    try {
      for await (const item of open(span.traceHeaders())) {
        time(true);
        yield item;
      }
      time(false);
    } catch (error) {
      time(false);
      outcome = failureOutcome(error);
      throw error;
    } finally {
      span.end(outcome);
    }
  }
}
