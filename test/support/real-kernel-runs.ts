import { EventType, type BaseEvent } from '@ag-ui/core';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { expectConformantEvents } from './agui-conformance';
import { interruptsOf, postResume, readThread, type Json } from './interrupt-helpers';
import { startKernelGateway, type KernelGateway, type UpstreamMode } from './kernel-gateway';
import {
  ALLOW_ONCE,
  customNamed,
  kernelTurn,
  parkPermission,
  sessionOf,
  toolResultsOf,
} from './kernel-run-checks';
import { textOf as streamedText } from './pipeline-run-checks';
import { KERNEL_API_KEY, KERNEL_CASE_TIMEOUT_MS, KERNEL_MODEL, KERNEL_START_TIMEOUT_MS } from './real-kernel';
import {
  chooseKernelReply,
  HELD_FIRST,
  Marker,
  plainAnswer,
  QUESTION,
  REASONING_TEXT,
  WRITTEN_CONTENT,
} from './scripted-llm/kernel-conversation';
import { lastUserText, startScriptedLlm, type ScriptedLlm } from './scripted-llm/scripted-llm-server';
import { eventually, openRun, postRun, type SseResponse } from './sse-client';

/**
 * The cases every upstream mode must pass against the real `iac-code a2a` kernel, driven by a scripted
 * OpenAI-compatible model. Each case checks what the client received (strict AG-UI conformance) and what
 * the kernel did: its task state (GetTask) and the file its bash tool wrote. One kernel per file.
 */
export function describeRealKernelRuns(mode: UpstreamMode): void {
  describe(`the gateway against the real kernel (${mode} upstream)`, () => {
    let llm: ScriptedLlm;
    let subject: KernelGateway;
    let workspace: string;
    let threadId: string;
    let caseNumber = 0;
    const gatewayUrl = () => subject.gateway.url;
    jest.setTimeout(KERNEL_CASE_TIMEOUT_MS);

    const turn = (text: string, runId = 'run-1', iacCode: Record<string, unknown> = {}) =>
      kernelTurn({ threadId, runId, text: `${text} (${threadId})`, cwd: workspace, iacCode });
    const run = async (body: unknown, route = ''): Promise<SseResponse> => {
      const response = await postRun(`${gatewayUrl()}${route}`, body);
      expect(response.status).toBe(200);
      await expectConformantEvents(response.events);
      return response;
    };
    const resume = async (runId: string, answer: Json, iacCode: Record<string, unknown> = {}) => {
      const response = await postResume(gatewayUrl(), threadId, runId, [answer], {
        cwd: workspace,
        ...iacCode,
      });
      expect(response.status).toBe(200);
      await expectConformantEvents(response.events);
      return response.events;
    };
    const taskState = async (events: BaseEvent[]) =>
      (await subject.getTask(sessionOf(events).taskId)).status.state as string;
    /** The model requests of this case (their latest user message names the thread). */
    const modelRequests = () =>
      llm.requests.filter((request) => lastUserText(request).includes(`(${threadId})`));

    /** Runs a bash call to its permission interrupt, durable in the thread file before the run ended. */
    const parkWrite = async (file: string) => {
      const parked = await parkPermission(gatewayUrl(), turn(`${Marker.writeFile} ${file}`));
      expect(parked.interrupt).toMatchObject({ reason: 'tool_call' });
      expect(readThread(subject.stateDir, threadId).execution.pending).toHaveProperty([parked.interrupt.id]);
      return parked;
    };

    beforeAll(async () => {
      llm = await startScriptedLlm(chooseKernelReply);
      subject = await startKernelGateway(mode, llm);
    }, KERNEL_START_TIMEOUT_MS + 10_000);
    beforeEach(() => {
      caseNumber += 1;
      threadId = `kernel-thread-${caseNumber}`;
      workspace = mkdtempSync(path.join(subject.dirs.workspaceRoot, 'ws-'));
    });
    afterAll(async () => {
      await subject?.close();
      await llm?.close();
    });

    it('streams reasoning and text, reports usage, and ends the turn; the kernel waits for the next message', async () => {
      const { events } = await run(turn(`${Marker.think} hello`));

      const reasoning = events.filter((e) => e.type === EventType.REASONING_MESSAGE_CONTENT) as Json[];
      expect(reasoning.map((e) => e.delta).join('')).toBe(REASONING_TEXT);
      expect(streamedText(events)).toBe(plainAnswer(1));
      expect(events.at(-1)).toMatchObject({
        type: EventType.RUN_FINISHED,
        outcome: { type: 'success' },
        usage: [expect.objectContaining({ inputTokens: 11, outputTokens: 7, totalTokens: 18 })],
      });
      // The kernel's end of a chat turn: INPUT_REQUIRED without an input, never COMPLETED.
      expect(await taskState(events)).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(modelRequests()).toEqual([
        expect.objectContaining({
          authorization: `Bearer ${KERNEL_API_KEY}`,
          body: expect.objectContaining({ model: KERNEL_MODEL }),
        }),
      ]);
    });

    it('serves the same run on /invocations', async () => {
      const { events } = await run(turn('hello through AgentCore'), 'invocations');

      expect(streamedText(events)).toBe(plainAnswer(1));
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
    });

    it('continues the conversation in a second turn: same session, the model sees both messages', async () => {
      const first = await run(turn('first message'));
      const second = await run(turn('second message', 'run-2'));

      expect(streamedText(second.events)).toBe(plainAnswer(2));
      expect(second.events.at(-1)).toMatchObject({
        type: EventType.RUN_FINISHED,
        outcome: { type: 'success' },
      });
      expect(sessionOf(second.events).sessionId).toBe(sessionOf(first.events).sessionId);
      expect(sessionOf(second.events).executionId).not.toBe(sessionOf(first.events).executionId);
      const lastRequest = modelRequests().at(-1);
      expect(lastRequest?.body.messages.filter((m) => m.role === 'user')).toHaveLength(2);
    });

    it('permission allowed: the kernel runs bash, which writes the file, and the turn ends', async () => {
      const { events: parked, interrupt } = await parkWrite('allowed.txt');
      expect(existsSync(path.join(workspace, 'allowed.txt'))).toBe(false);

      const events = await resume('run-2', { interruptId: interrupt.id, ...ALLOW_ONCE });

      expect(readFileSync(path.join(workspace, 'allowed.txt'), 'utf8')).toBe(WRITTEN_CONTENT);
      expect(toolResultsOf(events)).toEqual([
        { toolCallId: interrupt.toolCallId, content: expect.any(String) },
      ]);
      expect(streamedText(events)).toMatch(/^The tool said: /);
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      expect(readThread(subject.stateDir, threadId).execution.pending).toEqual({});
      expect(sessionOf(events).taskId).toBe(sessionOf(parked).taskId);
    });

    it.each([
      { name: 'denied', answer: { status: 'resolved', payload: { decision: 'deny' } } },
      { name: 'cancelled (a cancelled permission is a denial)', answer: { status: 'cancelled' } },
    ])(
      'permission $name: bash never runs, the model hears the refusal, the turn ends',
      async ({ answer }) => {
        const { interrupt } = await parkWrite('refused.txt');

        const events = await resume('run-2', { interruptId: interrupt.id, ...answer });

        expect(existsSync(path.join(workspace, 'refused.txt'))).toBe(false);
        expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
        const toolMessage = modelRequests()
          .at(-1)
          ?.body.messages.find((m) => m.role === 'tool');
        expect(String(toolMessage?.content)).toContain('The user explicitly denied this tool operation.');
        expect(readThread(subject.stateDir, threadId).execution.pending).toEqual({});
      },
    );

    it('a question of the selling Pipeline: answered once, the Pipeline completes with one catch-up only', async () => {
      const pipeline = { runMode: 'pipeline', pipelineName: 'selling' };
      const { events: asked } = await run(turn('deploy something for me', 'run-1', pipeline));
      const [interrupt] = interruptsOf(asked) ?? [];
      expect(interrupt).toMatchObject({ message: expect.stringContaining(QUESTION.question) });

      const events = await resume(
        'run-2',
        { interruptId: interrupt.id, status: 'resolved', payload: { selectedId: 'beijing' } },
        pipeline,
      );

      // The model got the answer as the tool's result.
      const toolMessage = modelRequests()
        .at(-1)
        ?.body.messages.find((m) => m.role === 'tool');
      expect(JSON.parse(String(toolMessage?.content))).toMatchObject({ selected_id: 'beijing' });
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      // One snapshot (the resume's preflight), the Pipeline's envelopes in their kernel order, and its
      // completion exactly once: no catch-up replays them after the live stream.
      expect(events.filter((e) => e.type === EventType.ACTIVITY_SNAPSHOT)).toHaveLength(1);
      const envelopes = customNamed(events, 'iac-code.pipeline.v1').map((e) => e.value);
      const sequences = envelopes.map((envelope) => envelope.sequence as number);
      expect(sequences).toEqual([...new Set(sequences)].sort((a, b) => a - b));
      expect(envelopes.filter((envelope) => envelope.eventType === 'pipeline_completed')).toHaveLength(1);
      expect(await taskState(asked)).toBe('TASK_STATE_COMPLETED');
    });

    it('the cancel route stops a running turn; the kernel task becomes CANCELED', async () => {
      const open = openRun(gatewayUrl(), turn(Marker.slow));
      const held = await llm.nextHeld();
      const session = (await open.waitForEvent((e) => (e as Json).name === 'iac-code.session.v1')) as Json;
      await open.waitForEvent((e) => (e as Json).delta === HELD_FIRST);

      const cancelled = await fetch(
        `${gatewayUrl()}extensions/iac-code/v1/executions/${session.value.executionId}/cancel`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ threadId, rosInvocationId: 'invocation-1' }),
        },
      );

      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toEqual({ executionId: session.value.executionId, status: 'cancelled' });
      const { events } = await open.finished;
      await expectConformantEvents(events);
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: 'CANCELLED' });
      expect(await taskState(events)).toBe('TASK_STATE_CANCELED');
      expect(await held.ended).toBe('client-closed');
    });

    it('a client that disconnects mid-turn gets its kernel task cancelled', async () => {
      const open = openRun(gatewayUrl(), turn(Marker.slow));
      const held = await llm.nextHeld();
      const session = (await open.waitForEvent((e) => (e as Json).name === 'iac-code.session.v1')) as Json;

      open.abort();

      // The kernel drops its model call when its task is cancelled.
      expect(await held.ended).toBe('client-closed');
      const state = () => subject.getTask(session.value.taskId).then((task) => task.status.state as string);
      expect(await eventually(state, (value) => value === 'TASK_STATE_CANCELED')).toBe('TASK_STATE_CANCELED');
    });

    it('a gateway restarted with a parked permission resumes it on the same kernel task', async () => {
      const { events: parked, interrupt } = await parkWrite('after-restart.txt');
      await subject.restart();

      const events = await resume('run-2', { interruptId: interrupt.id, ...ALLOW_ONCE });

      expect(readFileSync(path.join(workspace, 'after-restart.txt'), 'utf8')).toBe(WRITTEN_CONTENT);
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      expect(sessionOf(events).taskId).toBe(sessionOf(parked).taskId);
    });

    it('a failing model ends the run with A2A_EXECUTION_FAILED, and the thread takes the next turn', async () => {
      const { events } = await run(turn(Marker.fail));

      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: 'A2A_EXECUTION_FAILED' });
      // The kernel reports FAILED for the turn and keeps its task waiting for the next message.
      expect(await taskState(events)).toBe('TASK_STATE_INPUT_REQUIRED');
      const next = await run(turn('are you there', 'run-2'));
      expect(streamedText(next.events)).toMatch(/^Scripted answer number \d\.$/);
      expect(next.events.at(-1)).toMatchObject({
        type: EventType.RUN_FINISHED,
        outcome: { type: 'success' },
      });
    });

    it('a run’s model and API key override the kernel’s own, and the key is never logged', async () => {
      const { events } = await run(
        turn('hello', 'run-1', { model: 'override-model', llmApiKey: 'sk-run-override' }),
      );

      expect(streamedText(events)).toBe(plainAnswer(1));
      expect(modelRequests()).toEqual([
        expect.objectContaining({
          authorization: 'Bearer sk-run-override',
          body: expect.objectContaining({ model: 'override-model' }),
        }),
      ]);
      expect(subject.gateway.logs.join('\n')).not.toContain('sk-run-override');
    });
  });
}
