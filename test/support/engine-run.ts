import type { BaseEvent } from '@ag-ui/core';
import { Logger } from '@nestjs/common';
import { shellPermissionSpec } from '../../src/demo-kernel/interrupt-scripts';
import {
  inputRequiredFrame,
  permissionInput,
  sidebandPermissionsFrame,
} from '../../src/demo-kernel/kernel-inputs';
import { statusFrame } from '../../src/demo-kernel/kernel-frames';
import type { KernelInputValue } from '../../src/demo-kernel/kernel-script';
import { MessageCatalogue } from '../../src/i18n/message-catalogue';
import { RunDelivery } from '../../src/runs/run-delivery';
import { leaseGuardedGateway } from '../../src/runs/lease-guarded-gateway';
import { RunExecution } from '../../src/runs/run-execution';
import { ThreadRegistry } from '../../src/threads/thread-registry';
import { ThreadRunState } from '../../src/threads/thread-run-state';
import type { ThreadState } from '../../src/threads/thread-state';
import type { A2aFrame } from '../../src/wire/a2a-wire';
import { admittedRunFixture } from './admitted-run-fixture';
import { DrivenA2aGateway } from './fakes/driven-a2a-gateway';
import { FakeClock } from './fakes/fake-clock';
import { InMemoryThreadStore } from './fakes/in-memory-thread-store';
import { RecordingSink } from './fakes/recording-sink';
import { threadStateFixture } from './thread-state-fixture';

export const THREAD = 'thread-1';
export const CANCEL_TIMEOUT_MS = 5000;
const logger = new Logger('EngineRun');

/** A thread as admission leaves it for a new turn: a fresh execution, no task bound yet. */
export function freshThread(): ThreadState {
  const state = threadStateFixture();
  return { ...state, iacCodeSessionId: null, execution: { ...state.execution, taskId: null } };
}

/** The ids of the kernel's one task in these runs. */
export const kernelIds = (contextId: string) => ({ taskId: 'task-1', contextId, sessionId: 'session-1' });

export const lastEvent = (events: BaseEvent[]) => events.at(-1) as BaseEvent & Record<string, unknown>;

export interface EngineRunOptions {
  readonly runId?: string;
  readonly resume?: unknown[];
  readonly store?: InMemoryThreadStore;
  readonly registry?: ThreadRegistry;
  readonly gateway?: DrivenA2aGateway;
  readonly clock?: FakeClock;
  readonly interruptTtlSeconds?: number;
  /** The kernel behind the lease guard, as RunService wires it (docs/behaviour/state.md#the-run-lease). */
  readonly leaseGuarded?: boolean;
}

/**
 * Run `runId` of thread-1 (a new turn, or answering `resume`) as admission leaves it: the thread claimed for
 * the run in `registry`, and its AdmittedRun over a real ThreadRunState.
 */
export async function admitEngineRun(registry: ThreadRegistry, runId: string, resume?: unknown[]) {
  let admitted!: ThreadState;
  await registry.withLock(THREAD, async () => {
    admitted = (await registry.load(THREAD)) as ThreadState;
    await registry.commitAndClaim(admitted, runId);
  });
  const body = {
    threadId: THREAD,
    runId,
    messages: [{ id: `m-${runId}`, role: 'user', content: 'hello' }],
    forwardedProps: { iacCode: { schemaVersion: 1, rosInvocationId: 'invocation-1', cwd: '/work/ws' } },
    ...(resume ? { resume } : {}),
  };
  const persistence = new ThreadRunState(registry, admitted, runId, logger);
  const run = admittedRunFixture(body, {
    executionId: admitted.execution.executionId,
    contextId: admitted.contextId,
    persistence,
  });
  return { admitted, persistence, run };
}

/**
 * One run of RunExecution through the run handler into a recording sink, over a real ThreadRegistry and
 * ThreadRunState on the in-memory store; the kernel is a DrivenA2aGateway the test feeds frame by frame.
 */
export async function startEngineRun(options: EngineRunOptions = {}) {
  const runId = options.runId ?? 'run-1';
  const store = options.store ?? new InMemoryThreadStore();
  if (!options.store) await store.save(freshThread());
  const registry = options.registry ?? new ThreadRegistry(store, null, null, { threadCacheSize: 8 });
  const gateway = options.gateway ?? new DrivenA2aGateway();
  const clock = options.clock ?? new FakeClock();
  const { admitted, persistence, run } = await admitEngineRun(registry, runId, options.resume);
  const execution = new RunExecution(run, {
    gateway: options.leaseGuarded ? leaseGuardedGateway(gateway, persistence) : gateway,
    persistence,
    clock,
    catalogue: new MessageCatalogue(),
    logger,
    validate: () => true,
    interruptTtlSeconds: options.interruptTtlSeconds ?? 0,
    cancelTimeoutMs: CANCEL_TIMEOUT_MS,
  });
  const sink = new RecordingSink();
  const delivery = new RunDelivery(execution, sink, [], () => persistence.release(), {
    runToken: '0123456789abcdef',
  });
  const delivered = delivery.deliver();
  const stored = async () => (await store.load(THREAD)) as ThreadState;
  const isBusy = () =>
    registry.withLock(THREAD, async () => (await registry.load(THREAD), registry.isBusy(THREAD)));
  return { store, registry, gateway, clock, sink, delivery, delivered, execution, stored, isBusy, admitted };
}

/**
 * A run of thread-1 that ended at `input` (asked directly, or as a sideband permission of a working task);
 * returns its store, the interrupt's id and the GetTask answer of the task still waiting for it.
 */
export async function parkedAt(
  inputOf: (ids: ReturnType<typeof kernelIds>) => KernelInputValue,
  options: { sideband?: boolean } & Pick<
    EngineRunOptions,
    'clock' | 'interruptTtlSeconds' | 'store' | 'registry' | 'gateway'
  > = {},
) {
  const first = await startEngineRun(options);
  const ids = kernelIds(first.admitted.contextId);
  const input = inputOf(ids);
  const stream = await first.gateway.stream();
  stream.push(statusFrame(ids, 'TASK_STATE_WORKING'));
  stream.push(options.sideband ? sidebandPermissionsFrame(ids, [input]) : inputRequiredFrame(ids, { input }));
  stream.end();
  await first.delivered;
  const waiting: A2aFrame = {
    task: {
      id: ids.taskId,
      contextId: ids.contextId,
      status: { state: options.sideband ? 'TASK_STATE_WORKING' : 'TASK_STATE_INPUT_REQUIRED' },
      metadata: {
        iac_code: {
          iacCodeSessionId: ids.sessionId,
          ...(options.sideband ? { pendingPermissions: [input] } : { input }),
        },
      },
    },
  };
  return { ...first, ids, input, interruptId: String(input.inputId), waiting };
}

export type ParkedRun = Awaited<ReturnType<typeof parkedAt>>;

/**
 * Run 2 of the parked thread, answering with `resume`; GetTask answers `snapshot` (the task still waiting,
 * unless told; `null`: the fake's own answer). `registry`: another replica's, over the same store.
 */
export async function resumeEngineRun(
  parked: ParkedRun,
  resume: unknown[],
  snapshot: A2aFrame | null = parked.waiting,
  options: Pick<EngineRunOptions, 'runId' | 'registry'> = {},
) {
  parked.gateway.taskSnapshot = snapshot ?? undefined;
  const callsBefore = parked.gateway.calls.length;
  const second = await startEngineRun({
    runId: options.runId ?? 'run-2',
    resume,
    store: parked.store,
    registry: options.registry ?? parked.registry,
    gateway: parked.gateway,
    clock: parked.clock,
  });
  /** The kernel calls of the resume alone. */
  const calls = () => parked.gateway.calls.slice(callsBefore);
  return { ...second, calls, ids: parked.ids, interruptId: parked.interruptId };
}

/** The shell permission the kernel asks in these runs. */
export const shellPermission = (ids: ReturnType<typeof kernelIds>) =>
  permissionInput(ids, shellPermissionSpec('tool-1'));

/** A permission answer that allows once. */
export const allowOnce = (interruptId: string) => [
  { interruptId, status: 'resolved', payload: { decision: 'allow_once' } },
];
