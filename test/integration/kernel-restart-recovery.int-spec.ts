import type { BaseEvent } from '@ag-ui/core';
import * as os from 'node:os';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { interruptsOf, postResume } from '../support/interrupt-helpers';
import { expectConformantEvents } from '../support/agui-conformance';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import { useGateway } from '../support/use-gateway';

type Session = BaseEvent & { name?: string; value?: { executionId?: string } };

/**
 * A kernel that restarts forgets its tasks (the scripted one keeps them in memory, like a kernel whose
 * container was replaced). A thread parked at an interrupt must not stay stuck: a cancelling resume, the
 * cancel route and a new turn each end that execution and free the thread; an answering resume is refused.
 */
describe('after a kernel restart: recovery of a parked thread', () => {
  // The kernel is this file's own (it is replaced mid-setup); the gateway reaches it through the proxy.
  let kernel: KernelUpstream;
  let proxy: FaultProxy;
  const parked = new Map<string, { interruptId: string; executionId: string }>();

  beforeAll(async () => {
    kernel = await startKernelUpstream();
    proxy = await startFaultProxy(kernel.url);
  });
  const gateway = useGateway({
    env: () => ({ IAC_CODE_AGUI_A2A_URL: proxy.url, IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir() }),
  });
  afterAll(async () => {
    await proxy?.close();
    await kernel?.close();
  });

  beforeAll(async () => {
    for (const threadId of ['cancelled-resume', 'resolved-resume', 'new-turn']) {
      const run = await postRun(gateway.url, runInput({ threadId, text: 'permission' }));
      const [interrupt] = interruptsOf(run.events) ?? [];
      const session = run.events.find(
        (event) => (event as Session).name === 'iac-code.session.v1',
      ) as Session;
      parked.set(threadId, { interruptId: interrupt.id, executionId: session.value?.executionId ?? '' });
    }
    // The restart: the same address (the proxy) now reaches a kernel that never saw these tasks.
    await kernel.close();
    kernel = await startKernelUpstream();
    proxy.retarget(kernel.url);
  });

  const expectNewTurnAdmitted = async (threadId: string, runId: string) => {
    const next = await postRun(gateway.url, runInput({ threadId, runId }));
    expect(next.status).toBe(200);
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  };
  const cancelled = (threadId: string) => ({
    interruptId: parked.get(threadId)?.interruptId,
    status: 'cancelled',
  });
  const allowed = (threadId: string) => ({
    interruptId: parked.get(threadId)?.interruptId,
    status: 'resolved',
    payload: { decision: 'allow_once' },
  });

  it('a cancelling resume ends the forgotten execution, and the thread takes a new turn', async () => {
    const threadId = 'cancelled-resume';
    const resumed = await postResume(gateway.url, threadId, 'run-2', [cancelled(threadId)]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    await expectNewTurnAdmitted(threadId, 'run-3');
  });

  it('an answering resume is refused EXECUTION_LOST; the cancel route then ends the execution', async () => {
    const threadId = 'resolved-resume';
    const resumed = await postResume(gateway.url, threadId, 'run-2', [allowed(threadId)]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'EXECUTION_LOST' });
    const { executionId } = parked.get(threadId) ?? { executionId: '' };
    const answer = await fetch(`${gateway.url}extensions/iac-code/v1/executions/${executionId}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId, rosInvocationId: 'invocation-1' }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ executionId, status: 'cancelled' });
    await expectNewTurnAdmitted(threadId, 'run-3');
  });

  it('a new turn on the parked thread is admitted at once', async () => {
    await expectNewTurnAdmitted('new-turn', 'run-2');
  });
});
