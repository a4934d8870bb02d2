import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { RunTracer, type RunSpanAttributes, type TraceSpan } from '../tracing/run-tracer';
import { DISCONNECTED, runOutcomeCode, type TerminalEventLike } from './run-outcome-code';
import { RunMetrics } from './run-metrics';

/** One run as metrics and a span see it; created by RunTelemetry.startRun, one per run. */
export class ObservedRun {
  private outcome: string | undefined;
  private sawMappedEvent = false;
  private ended = false;

  constructor(
    /** The run's span: activate it around the run's upstream work so A2A spans and headers are its children. */
    readonly span: TraceSpan,
    private readonly metrics: RunMetrics,
    private readonly clock: Clock,
    private readonly admittedAtMs: number,
  ) {}

  /** Each AG-UI event as it is handed to the client: counted by type; the first mapped one is timed. */
  event(event: TerminalEventLike): void {
    this.metrics.eventEmitted(event.type);
    if (!this.sawMappedEvent && event.type !== 'RUN_STARTED') {
      this.sawMappedEvent = true;
      this.metrics.observeTimeToFirstEvent((this.clock.now() - this.admittedAtMs) / 1000);
    }
    this.outcome = runOutcomeCode(event) ?? this.outcome;
  }

  /** Once, when the stream is over (finalize): the terminal event's outcome, or `disconnected`. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const outcome = this.outcome ?? DISCONNECTED;
    this.metrics.runEnded(outcome);
    this.span.end(outcome);
  }
}

/**
 * What the run path calls to be observable : one `startRun` when a run's stream starts, then
 * `event()` per event and `end()` when it is over. Keeps RunService free of metric and span details.
 */
@Injectable()
export class RunTelemetry {
  constructor(
    private readonly metrics: RunMetrics,
    private readonly tracer: RunTracer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  startRun(
    attributes: RunSpanAttributes & { readonly face: string },
    admittedAtMs: number,
    incomingHeaders?: Readonly<Record<string, string | string[] | undefined>>,
  ): ObservedRun {
    this.metrics.runStarted(attributes.face);
    const span = this.tracer.startRunSpan(attributes, incomingHeaders);
    return new ObservedRun(span, this.metrics, this.clock, admittedAtMs);
  }
}
