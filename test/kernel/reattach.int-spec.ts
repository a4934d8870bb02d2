import { EventType, type BaseEvent } from '@ag-ui/core';
import { mkdtempSync } from 'node:fs';
import * as path from 'node:path';
import { expectConformantEvents } from '../support/agui-conformance';
import type { Json } from '../support/interrupt-helpers';
import { startKernelGateway, type KernelGateway } from '../support/kernel-gateway';
import { kernelTurn, sessionOf } from '../support/kernel-run-checks';
import { textOf } from '../support/pipeline-run-checks';
import { KERNEL_CASE_TIMEOUT_MS, KERNEL_START_TIMEOUT_MS } from '../support/real-kernel';
import {
  chooseKernelReply,
  HELD_FIRST,
  HELD_REST,
  Marker,
} from '../support/scripted-llm/kernel-conversation';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm/scripted-llm-server';
import { openEvents, openRun } from '../support/sse-client';

/** How long the client is away: the scenario itself (a reload, a network switch), not a wait for the machine. */
const AWAY_MS = 5000;

/** The real `iac-code a2a` kernel behind a gateway with a window (docs/behaviour/reattach.md#grace-window). */
describe('a real kernel turn survives its client dropping for 5 s', () => {
  let llm: ScriptedLlm;
  let subject: KernelGateway;
  jest.setTimeout(KERNEL_CASE_TIMEOUT_MS);

  beforeAll(async () => {
    llm = await startScriptedLlm(chooseKernelReply);
    subject = await startKernelGateway('url', llm, { IAC_CODE_AGUI_REATTACH_SECONDS: '30' });
  }, KERNEL_START_TIMEOUT_MS + 10_000);
  afterAll(async () => {
    await subject?.close();
    await llm?.close();
  });

  it('reattached by Last-Event-ID, the turn completes with the full text; the kernel task was never cancelled', async () => {
    const threadId = 'kernel-reattach';
    const workspace = mkdtempSync(path.join(subject.dirs.workspaceRoot, 'ws-'));
    const gatewayUrl = subject.gateway.url;
    const owner = openRun(
      gatewayUrl,
      kernelTurn({ threadId, runId: 'run-1', text: Marker.slow, cwd: workspace }),
    );
    const held = await llm.nextHeld();
    await owner.waitForEvent((event) => (event as Json).delta === HELD_FIRST);
    owner.abort();
    const before = await owner.finished;
    await new Promise((resolve) => setTimeout(resolve, AWAY_MS));
    const after = openEvents(
      `${gatewayUrl}extensions/iac-code/v1/threads/${threadId}/events?rosInvocationId=invocation-1`,
      { headers: { 'last-event-id': before.ids.at(-1) as string } },
    );
    held.release();
    const rest = await after.finished;
    const events: BaseEvent[] = [...before.events, ...rest.events];
    await expectConformantEvents(events);
    expect(textOf(events)).toBe(`${HELD_FIRST}${HELD_REST}`);
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
    expect(await held.ended).toBe('released');
    const task = await subject.getTask(sessionOf(events).taskId);
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});
