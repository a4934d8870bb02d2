import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AguiGatewayModule, type ThreadCluster, type ThreadState, type ThreadStore } from '../../src/index';
import { threadClusterContractCases, threadStoreContractCases } from '../../src/testing';
import { statusFrame } from '../../src/demo-kernel/kernel-frames';
import { DrivenA2aGateway } from '../support/fakes/driven-a2a-gateway';
import { SharedThreadSpace } from '../support/fakes/shared-thread-space';
import { sessionOf } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { openRun, postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';

/**
 * docs/embedding.md#scale-out: a host's own shared storage (not Redis), written against the public API,
 * passes the exported contract suites, and two gateways over it answer as one process would.
 */
describe('a host thread store with the exported scale-out port', () => {
  describe('exported ThreadStore contract', () => {
    for (const contractCase of threadStoreContractCases(async () => {
      const space = new SharedThreadSpace();
      return {
        store: space.replica(),
        cleanup: async () => undefined,
        corrupt: async (threadId) => {
          space.documents.set(threadId, { text: '{"schemaVersion":1,"threadId":"elsewhere"}', version: 99 });
        },
      };
    }))
      it(contractCase.name, contractCase.run);
  });

  describe('exported ThreadCluster contract (two replicas)', () => {
    for (const contractCase of threadClusterContractCases(async () => {
      const space = new SharedThreadSpace();
      return { replicas: [space.replica(), space.replica()], cleanup: async () => undefined };
    }))
      it(contractCase.name, contractCase.run);
  });

  describe('two gateways over one shared space', () => {
    const space = new SharedThreadSpace();
    const kernel = new DrivenA2aGateway();
    let replicas: RunningGateway[] = [];

    const replicaOf = (handle: ThreadStore & ThreadCluster) =>
      startModule([
        AguiGatewayModule.forRoot({
          environment: {},
          config: {
            stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-replica-')),
            allowedCwdRoots: [os.tmpdir()],
          },
          threadStore: { useValue: handle },
          threadCluster: { useValue: handle },
          a2aGateway: { useValue: kernel },
        }),
      ]);
    beforeAll(async () => {
      replicas = [await replicaOf(space.replica()), await replicaOf(space.replica())];
    });
    afterAll(() => Promise.all(replicas.map((replica) => replica.close())));

    it('answers THREAD_BUSY on one replica while the other streams the thread, and cancels it from there', async () => {
      const [a, b] = replicas;
      const streaming = openRun(a.url, runInput({ threadId: 'shared-1', runId: 'run-a' }));
      const stream = await kernel.stream(0);
      stream.push(
        statusFrame(
          { taskId: 'task-shared', contextId: kernel.sentMessages[0].contextId, sessionId: 'session-1' },
          'TASK_STATE_WORKING',
        ),
      );
      const session = await streaming.waitForEvent(
        (event) => (event as { name?: string }).name === 'iac-code.session.v1',
      );

      const busy = await postRun(b.url, runInput({ threadId: 'shared-1', runId: 'run-b' }));
      expect(busy.status).toBe(409);
      expect(JSON.parse(busy.text)).toMatchObject({ error: { code: 'THREAD_BUSY' } });

      const { executionId } = sessionOf([session]);
      const cancelled = await fetch(`${b.url}extensions/iac-code/v1/executions/${executionId}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: 'shared-1', rosInvocationId: 'invocation-1' }),
      });
      expect(await cancelled.json()).toEqual({ executionId, status: 'cancelled' });
      const ended = await streaming.finished;
      expect(ended.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
      expect(kernel.cancelledTaskIds).toEqual(['task-shared']);
    });
  });

  it("answers a damaged document from a host's store with 503 STATE_UNAVAILABLE, never a 500", async () => {
    const damaged: ThreadStore = {
      load: async (threadId) => ({ schemaVersion: 1, threadId }) as unknown as ThreadState,
      save: async () => undefined,
      checkReady: async () => undefined,
    };
    const gateway = await startModule([
      AguiGatewayModule.forRoot({
        environment: {},
        config: {
          stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-damaged-')),
          allowedCwdRoots: [os.tmpdir()],
        },
        threadStore: { useValue: damaged },
        a2aGateway: { useValue: new DrivenA2aGateway() },
      }),
    ]);
    try {
      const response = await postRun(gateway.url, runInput({ threadId: 'damaged-1' }));
      expect(response.status).toBe(503);
      expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'STATE_UNAVAILABLE' } });
    } finally {
      await gateway.close();
    }
  });
});
