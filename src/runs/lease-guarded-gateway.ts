import type { A2aGateway } from '../a2a/a2a-gateway';
import type { A2aFrame, A2aOutgoingMessage } from '../wire/a2a-wire';

/** What the guard asks before a side effect: resolves while the run still holds its thread. */
export interface RunLeaseCheck {
  ensureLease(): Promise<void>;
}

/**
 * The one seam between a run and the kernel calls that change a task — a message (a new turn, an answer) and
 * CancelTask: each waits for the run's lease check first, so a replica that lost its thread to another never
 * sends one (docs/behaviour/state.md#the-run-lease). The kernel cannot check a fencing token, so the gateway
 * must not send what it does not hold. Reads (GetTask, SubscribeToTask, session restore, Pipeline state) pass
 * through: they change nothing.
 */
export function leaseGuardedGateway(gateway: A2aGateway, lease: RunLeaseCheck): A2aGateway {
  return {
    sendStreamingMessage: (message: A2aOutgoingMessage, signal: AbortSignal): AsyncIterable<A2aFrame> =>
      guardedStream(lease, () => gateway.sendStreamingMessage(message, signal)),
    cancelTask: async (taskId: string) => {
      await lease.ensureLease();
      return gateway.cancelTask(taskId);
    },
    sendMessage: async (message: A2aOutgoingMessage) => {
      await lease.ensureLease();
      return gateway.sendMessage(message);
    },
    getTask: (taskId, historyLength, signal) => gateway.getTask(taskId, historyLength, signal),
    subscribeToTask: (taskId, signal) => gateway.subscribeToTask(taskId, signal),
    ensureSessionRestored: (request, signal) => gateway.ensureSessionRestored(request, signal),
    getPipelineState: (taskId, afterSequence, signal) =>
      gateway.getPipelineState(taskId, afterSequence, signal),
    checkReady: () => gateway.checkReady(),
  };
}

/** The stream is opened only once the lease check passed. */
async function* guardedStream(
  lease: RunLeaseCheck,
  open: () => AsyncIterable<A2aFrame>,
): AsyncIterable<A2aFrame> {
  await lease.ensureLease();
  yield* open();
}
