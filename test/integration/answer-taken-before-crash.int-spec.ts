import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { threadFileStem } from '../../src/threads/thread-file-name';
import { expectConformantEvents } from '../support/agui-conformance';
import { answersTo, interruptsOf, postResume } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

type Session = { name?: string; value?: { taskId?: string } };

/**
 * The crash window between the kernel accepting an answer and the gateway recording it: the thread file
 * still shows the interrupt pending, the kernel's task already holds the answer. The client's retry must
 * not apply it a second time: it is answered RESUME_ALREADY_APPLIED and the answer is recorded.
 */
describe('a retried answer the kernel took just before a crash', () => {
  const gateways = useGateway({ upstream: true, startBeforeAll: false });

  it('is answered RESUME_ALREADY_APPLIED, sent to the kernel once, and the thread goes on', async () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-taken-'));
    const env = { IAC_CODE_AGUI_STATE_DIR: stateDir };
    const threadId = 'taken-answer';
    const file = path.join(stateDir, 'threads', `${threadFileStem(threadId)}.json`);
    const first = await gateways.start(env);
    const parked = await postRun(first.url, runInput({ threadId, text: 'permission' }));
    const [interrupt] = interruptsOf(parked.events) ?? [];
    const taskId = (parked.events.find((e) => (e as Session).name === 'iac-code.session.v1') as Session).value
      ?.taskId;
    const beforeAnswer = readFileSync(file);
    const answer = { interruptId: interrupt.id, status: 'resolved', payload: { decision: 'allow_once' } };
    const applied = await postResume(first.url, threadId, 'run-2', [answer]);
    expect(applied.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    await first.close();
    // The crash: the kernel has the answer, the file does not.
    writeFileSync(file, beforeAnswer);

    const second = await gateways.start(env);
    const retried = await postResume(second.url, threadId, 'run-3', [answer]);
    await expectConformantEvents(retried.events);
    expect(retried.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    const permissionAnswers = (await answersTo(gateways.upstream, taskId ?? '')).filter((message) =>
      JSON.stringify(message.parts).includes(interrupt.id),
    );
    expect(permissionAnswers).toHaveLength(1);
    // Recorded now: the same retry again is recognised without asking the kernel, and a new turn runs.
    const again = await postResume(second.url, threadId, 'run-4', [answer]);
    expect(again.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    const next = await postRun(second.url, runInput({ threadId, runId: 'run-5' }));
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });
});
