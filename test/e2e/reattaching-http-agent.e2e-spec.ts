import type { BaseEvent, Message } from '@ag-ui/client';
import { ReattachingHttpAgent } from '../../src/client';
import { SLOW_DELTA_COUNT } from '../../src/demo-kernel/faults/failure-scripts';
import { expectConformantEvents } from '../support/agui-conformance';
import { startCuttingProxy, type CuttingProxy } from '../support/cutting-proxy';
import { runInput } from '../support/run-input';
import { openRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

/** The slow script's whole answer: every step, in order, once. */
const SLOW_TEXT = Array.from(
  { length: SLOW_DELTA_COUNT },
  (_, i) => `Step ${i + 1} of ${SLOW_DELTA_COUNT}. `,
).join('');
const assistantText = (messages: Message[]) =>
  messages
    .filter((message) => message.role === 'assistant')
    .map((message) => (typeof message.content === 'string' ? message.content : ''))
    .join('');

function agentFor(url: string, threadId: string): ReattachingHttpAgent {
  const input = runInput({ threadId, text: 'slow' });
  const agent = new ReattachingHttpAgent({ url, threadId, reattach: { initialDelayMs: 50 } });
  agent.messages.push(...(input.messages as Message[]));
  return agent;
}
const forwardedProps = runInput().forwardedProps;

/** The client half (docs/behaviour/reattach.md#the-client), against a gateway with a window, through a proxy that drops the socket. */
describe('ReattachingHttpAgent', () => {
  const gateway = useGateway({ upstream: true, env: { IAC_CODE_AGUI_REATTACH_SECONDS: '30' } });
  let proxy: CuttingProxy;
  beforeEach(async () => {
    proxy = await startCuttingProxy(gateway.url);
  });
  afterEach(() => proxy.close());

  it('runAgent rides over a dropped socket: one uninterrupted run, the complete text', async () => {
    const agent = agentFor(proxy.url, 'client-cut');
    const events: BaseEvent[] = [];
    const cut = proxy.cutNext(2000);
    const result = await agent.runAgent(
      { runId: 'run-client-cut', forwardedProps },
      { onEvent: ({ event }) => void events.push(event) },
    );
    await cut;
    expect(proxy.connections).toBeGreaterThanOrEqual(2);
    expect(assistantText(result.newMessages)).toBe(SLOW_TEXT);
    await expectConformantEvents(events);
  });

  it('abortRun cancels the execution and is never a reattach: the run ends with RUN_ERROR CANCELLED', async () => {
    const requests: string[] = [];
    const agent = agentFor(proxy.url, 'client-abort');
    agent.fetch = (url, init) => {
      requests.push(`${init?.method ?? 'GET'} ${new URL(String(url)).pathname}`);
      return fetch(url, init);
    };
    const events: BaseEvent[] = [];
    let isStarted!: () => void;
    const started = new Promise<void>((resolve) => (isStarted = resolve));
    const running = agent.runAgent(
      { runId: 'run-client-abort', forwardedProps },
      {
        onEvent: ({ event }) => {
          events.push(event);
          if (event.type === 'TEXT_MESSAGE_CONTENT') isStarted();
        },
      },
    );
    await started;
    agent.abortRun();
    await running;
    const { executionId } = (
      events.find((event) => (event as { name?: string }).name === 'iac-code.session.v1') as unknown as {
        value: { executionId: string };
      }
    ).value;
    expect(requests).toEqual(['POST /', `POST /extensions/iac-code/v1/executions/${executionId}/cancel`]);
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'RUN_ERROR', code: 'CANCELLED' }));
  });

  it('connectAgent on a thread with a running turn follows it to the end', async () => {
    const threadId = 'client-connect';
    const owner = openRun(gateway.url, runInput({ threadId, runId: 'run-client-connect', text: 'slow' }));
    await owner.waitForEvent((event) => event.type === 'TEXT_MESSAGE_CONTENT');
    const agent = new ReattachingHttpAgent({ url: gateway.url, threadId });
    const result = await agent.connectAgent({ runId: 'run-client-connect', forwardedProps });
    expect(assistantText(result.newMessages)).toBe(SLOW_TEXT);
    expect((await owner.finished).events.at(-1)?.type).toBe('RUN_FINISHED');
  });
});
