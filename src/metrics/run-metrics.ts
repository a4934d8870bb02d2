import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Every series of the gateway starts with this (process and Node.js series keep their standard names). */
export const METRIC_PREFIX = 'agui_gateway_';

/** Seconds: from a fast local kernel (milliseconds) to a slow first token or a long cancel (tens of seconds). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Admission and state writes are local file or Redis operations: finer at the low end. */
const STORAGE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The gateway's Prometheus series , on a registry of its own rather than prom-client's global
 * one, so two apps in one process (tests, a host app with its own metrics) do not collide. The run path
 * calls these methods; they only count, never throw, and cost a map lookup each.
 */
@Injectable()
export class RunMetrics implements OnModuleDestroy {
  readonly registry = new Registry();

  private readonly activeRuns = new Gauge({
    name: `${METRIC_PREFIX}runs_active`,
    help: 'Runs currently streaming.',
    registers: [this.registry],
  });
  private readonly runsStarted = new Counter({
    name: `${METRIC_PREFIX}runs_started_total`,
    help: 'Runs admitted, by face (iac-code, agentcore, ws).',
    labelNames: ['face'],
    registers: [this.registry],
  });
  private readonly runsEnded = new Counter({
    name: `${METRIC_PREFIX}runs_total`,
    help: 'Runs ended, by outcome: success, interrupt, or the RUN_ERROR code.',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly events = new Counter({
    name: `${METRIC_PREFIX}events_total`,
    help: 'AG-UI events written, by event type.',
    labelNames: ['type'],
    registers: [this.registry],
  });
  private readonly heartbeats = new Counter({
    name: `${METRIC_PREFIX}heartbeats_total`,
    help: 'SSE heartbeat comments written.',
    registers: [this.registry],
  });
  private readonly a2aCalls = new Histogram({
    name: `${METRIC_PREFIX}a2a_call_duration_seconds`,
    help: 'A2A upstream call latency, by JSON-RPC method and result (ok, error).',
    labelNames: ['method', 'result'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly timeToFirstEvent = new Histogram({
    name: `${METRIC_PREFIX}time_to_first_event_seconds`,
    help: 'From admission to the first AG-UI event mapped from the A2A stream.',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly admission = new Histogram({
    name: `${METRIC_PREFIX}admission_duration_seconds`,
    help: 'Thread admission (lock, load, decide, persist) latency.',
    buckets: STORAGE_BUCKETS,
    registers: [this.registry],
  });
  private readonly stateWrites = new Histogram({
    name: `${METRIC_PREFIX}state_write_duration_seconds`,
    help: 'Thread state write latency.',
    buckets: STORAGE_BUCKETS,
    registers: [this.registry],
  });
  private readonly pendingInterrupts = new Gauge({
    name: `${METRIC_PREFIX}interrupts_pending`,
    help: 'Interrupts waiting for an answer.',
    registers: [this.registry],
  });
  private readonly expiredInterrupts = new Counter({
    name: `${METRIC_PREFIX}interrupts_expired_total`,
    help: 'Interrupts that expired before they were answered (EXECUTION_EXPIRED).',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  runStarted(face: string): void {
    this.activeRuns.inc();
    this.runsStarted.inc({ face });
  }

  /** `outcomeCode`: 'success', 'interrupt', or the RUN_ERROR code; once per run started. */
  runEnded(outcomeCode: string): void {
    this.activeRuns.dec();
    this.runsEnded.inc({ outcome: outcomeCode });
  }

  eventEmitted(type: string): void {
    this.events.inc({ type });
  }

  heartbeatSent(): void {
    this.heartbeats.inc();
  }

  observeA2aCall(method: string, seconds: number, ok: boolean): void {
    this.a2aCalls.observe({ method, result: ok ? 'ok' : 'error' }, seconds);
  }

  observeTimeToFirstEvent(seconds: number): void {
    this.timeToFirstEvent.observe(seconds);
  }

  observeAdmission(seconds: number): void {
    this.admission.observe(seconds);
  }

  observeStateWrite(seconds: number): void {
    this.stateWrites.observe(seconds);
  }

  setPendingInterrupts(count: number): void {
    this.pendingInterrupts.set(count);
  }

  interruptExpired(): void {
    this.expiredInterrupts.inc();
  }

  /** The Prometheus text exposition of every series. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  onModuleDestroy(): void {
    this.registry.clear();
  }
}
