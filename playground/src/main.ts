import './styles.css';
import { randomUUID, type BaseEvent, type Interrupt, type Message } from '@ag-ui/client';
import { ReattachingHttpAgent } from '../../src/client';
import { cancelExecution } from './cancel-execution';
import { buildConversation, findOpenInterrupts, latestExecutionId, sumUsage } from './conversation';
import { ConversationView } from './conversation-view';
import { describeFailure } from './describe-failure';
import { byId, element } from './element';
import { renderInterruptForms } from './interrupt-forms';
import { PAGE_TEXT } from './page-text';
import { tabStorage } from './tab-storage';
import type { ResumeAnswer, ThreadRecord, TurnRecord, TurnRequest, WireEvent } from './thread-record';
import { TimelineView } from './timeline-view';

/** What `GET playground/config.json` tells the page (src/playground/playground-page-config.ts). */
interface PageConfig {
  readonly defaultCwd: string;
  readonly authRequired: boolean;
}

/** The gateway's root, so the page also works behind a proxy that mounts the service under a path. */
const gatewayRoot = new URL(location.pathname.replace(/playground\/?[^/]*$/, ''), location.origin);

const ui = {
  status: byId<HTMLParagraphElement>('run-status'),
  tokenPanel: byId<HTMLElement>('token-panel'),
  tokenForm: byId<HTMLFormElement>('token-form'),
  tokenInput: byId<HTMLInputElement>('token-input'),
  changeToken: byId<HTMLButtonElement>('change-token-button'),
  promptForm: byId<HTMLFormElement>('prompt-form'),
  prompt: byId<HTMLTextAreaElement>('prompt-input'),
  send: byId<HTMLButtonElement>('send-button'),
  cancel: byId<HTMLButtonElement>('cancel-button'),
  interrupts: byId<HTMLElement>('interrupts'),
  interruptForms: byId<HTMLElement>('interrupt-forms'),
  threadSelect: byId<HTMLSelectElement>('thread-select'),
  newThread: byId<HTMLButtonElement>('new-thread-button'),
  cwd: byId<HTMLInputElement>('cwd-input'),
  facts: byId<HTMLElement>('run-facts'),
  usage: byId<HTMLElement>('usage-totals'),
};
const conversation = new ConversationView(byId<HTMLOListElement>('conversation'));
const timeline = new TimelineView(byId<HTMLOListElement>('timeline'));

const threads: ThreadRecord[] = tabStorage.threads();
const agents = new Map<string, ReattachingHttpAgent>();
let current: ThreadRecord;
let active: { readonly thread: ThreadRecord; readonly turn: TurnRecord } | undefined;
let renderQueued = false;

async function loadPageConfig(): Promise<PageConfig> {
  try {
    const response = await fetch(new URL('playground/config.json', gatewayRoot));
    if (response.ok) return (await response.json()) as PageConfig;
  } catch {
    // Fall through to defaults the demo accepts.
  }
  return { defaultCwd: '/tmp/agui-playground', authRequired: true };
}

function setStatus(text: string, isError = false): void {
  ui.status.textContent = text;
  ui.status.classList.toggle('status-error', isError);
}

function persist(): void {
  tabStorage.saveThreads(threads);
}

/**
 * The gateway's own HttpAgent: a stream that drops mid-turn is followed again by its last event id, and a
 * reload follows the turn that was in flight (docs/behaviour/reattach.md#the-client).
 */
function agentFor(thread: ThreadRecord): ReattachingHttpAgent {
  let agent = agents.get(thread.threadId);
  if (!agent) {
    agent = new ReattachingHttpAgent({
      url: gatewayRoot.href,
      threadId: thread.threadId,
      initialMessages: thread.messages as Message[],
    });
    agents.set(thread.threadId, agent);
  }
  return agent;
}

function renderThreadSelect(): void {
  ui.threadSelect.replaceChildren(
    ...threads.map((thread) =>
      element(
        'option',
        { value: thread.threadId, selected: thread === current },
        `${thread.title || PAGE_TEXT.untitled} · ${thread.threadId.slice(-8)}`,
      ),
    ),
  );
}

function renderFacts(): void {
  const turn = current.turns.at(-1);
  const facts: [string, string | undefined][] = [
    ['threadId', current.threadId],
    ['runId', turn?.runId],
    ['rosInvocationId', turn?.rosInvocationId],
    ['executionId', latestExecutionId(turn)],
  ];
  ui.facts.replaceChildren(
    ...facts.flatMap(([name, value]) => [
      element('dt', {}, name),
      element('dd', {}, element('code', {}, value ?? '—')),
    ]),
  );
  const totals = sumUsage(current);
  ui.usage.replaceChildren(
    element('dt', {}, 'Input tokens'),
    element('dd', { 'data-usage': 'input' }, String(totals.inputTokens)),
    element('dt', {}, 'Output tokens'),
    element('dd', { 'data-usage': 'output' }, String(totals.outputTokens)),
    element('dt', {}, 'Total tokens'),
    element('dd', { 'data-usage': 'total' }, String(totals.totalTokens)),
  );
  ui.cancel.disabled = !(active?.thread === current && latestExecutionId(active.turn));
  ui.send.disabled = active !== undefined;
}

function renderInterrupts(): void {
  const open = active ? undefined : findOpenInterrupts(current);
  ui.interrupts.hidden = !open;
  if (!open) return ui.interruptForms.replaceChildren();
  renderInterruptForms(
    ui.interruptForms,
    open.interrupts,
    (answers) => void resume(open.turn.rosInvocationId, answers),
  );
}

function render(): void {
  renderQueued = false;
  conversation.render(buildConversation(current));
  renderFacts();
}

/** Streaming text arrives in many small events: draw at most once a frame. */
function queueRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(render);
}

function selectThread(thread: ThreadRecord): void {
  current = thread;
  tabStorage.saveCurrentThreadId(thread.threadId);
  renderThreadSelect();
  conversation.clear();
  timeline.show(thread, Date.now());
  render();
  renderInterrupts();
}

function newThread(): ThreadRecord {
  const thread: ThreadRecord = { threadId: `playground-${randomUUID()}`, title: '', turns: [], messages: [] };
  threads.push(thread);
  persist();
  return thread;
}

function statusAfter(turn: TurnRecord): void {
  const error = turn.failure ?? turn.events.find((event) => event.type === 'RUN_ERROR');
  if (error) return setStatus(PAGE_TEXT.failed(String(error.code), String(error.message)), true);
  const finished = turn.events.findLast((event) => event.type === 'RUN_FINISHED');
  const outcome = (finished?.outcome as { type?: string } | undefined)?.type;
  setStatus(
    outcome === 'interrupt'
      ? PAGE_TEXT.interrupted
      : outcome === 'cancelled'
        ? PAGE_TEXT.cancelled
        : PAGE_TEXT.finished,
  );
}

/**
 * One run through HttpAgent, the client users use. `forwardedProps.iacCode` is what the gateway requires
 * (README "forwardedProps.iacCode"); the agent resends its message history and, for a resume, the answers.
 */
async function runTurn(
  thread: ThreadRecord,
  request: TurnRequest,
  rosInvocationId: string,
  resumeEntries?: ResumeAnswer[],
): Promise<void> {
  const agent = agentFor(thread);
  const turn: TurnRecord = { runId: `run-${randomUUID()}`, rosInvocationId, request, events: [] };
  // Keep the client's own pending-interrupt check in step with what the page shows (also after a reload).
  agent.pendingInterrupts = (findOpenInterrupts(thread)?.interrupts ?? []) as unknown as Interrupt[];
  const userMessageId = `user-${randomUUID()}`;
  if (request.kind === 'prompt')
    agent.messages.push({ id: userMessageId, role: 'user', content: request.text });
  thread.turns.push(turn);
  // Remembered before it streams: a reload mid-turn follows it again (followUnfinishedTurn).
  thread.messages = agent.messages;
  persist();
  await streamTurn(thread, turn, (subscriber) =>
    agent.runAgent(
      {
        runId: turn.runId,
        forwardedProps: iacCodeProps(rosInvocationId),
        ...(resumeEntries
          ? {
              resume: resumeEntries.map(({ interruptId, payload }) => ({
                interruptId,
                status: 'resolved' as const,
                payload,
              })),
            }
          : {}),
      },
      subscriber,
    ),
  );
  if (turn.failure && request.kind === 'prompt')
    agent.messages = agent.messages.filter((m) => m.id !== userMessageId);
  finishTurn(thread, turn);
}

/**
 * After a reload: the current thread's last turn never ended on this page. `connectAgent` follows it from
 * its first event over the gateway's reattach route, so the page shows the whole turn, the rest included.
 */
async function followUnfinishedTurn(thread: ThreadRecord): Promise<void> {
  const turn = thread.turns.at(-1);
  if (!turn || turn.failure || turn.events.some(isTerminal)) return;
  const agent = agentFor(thread);
  turn.events.length = 0;
  await streamTurn(thread, turn, (subscriber) =>
    agent.connectAgent({ runId: turn.runId, forwardedProps: iacCodeProps(turn.rosInvocationId) }, subscriber),
  );
  finishTurn(thread, turn);
}

function iacCodeProps(rosInvocationId: string) {
  return { iacCode: { schemaVersion: 1, rosInvocationId, cwd: ui.cwd.value.trim() } };
}

const isTerminal = (event: WireEvent) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';

/** Streams one turn's events into the page; a failure outside the stream is recorded on the turn. */
async function streamTurn(
  thread: ThreadRecord,
  turn: TurnRecord,
  run: (subscriber: { onEvent: (params: { event: BaseEvent }) => void }) => Promise<unknown>,
): Promise<void> {
  const agent = agentFor(thread);
  const token = tabStorage.token();
  agent.headers = token ? { Authorization: `Bearer ${token}` } : {};
  active = { thread, turn };
  setStatus(PAGE_TEXT.running);
  timeline.separator(turn.runId);
  renderInterrupts();
  render();
  try {
    await run({
      onEvent: ({ event }) => {
        turn.events.push(event as WireEvent);
        if (thread === current) timeline.append(event as WireEvent, Date.now());
        queueRender();
      },
    });
  } catch (error) {
    turn.failure = describeFailure(error);
  }
  // HttpAgent resolves when a stream just stops (docs/behaviour/agentcore.md): say so instead of "finished".
  if (!turn.failure && !turn.events.some(isTerminal)) {
    turn.failure = { code: PAGE_TEXT.noTerminalEventCode, message: PAGE_TEXT.noTerminalEvent };
  }
}

function finishTurn(thread: ThreadRecord, turn: TurnRecord): void {
  thread.messages = agentFor(thread).messages;
  active = undefined;
  persist();
  statusAfter(turn);
  if (thread === current) {
    render();
    renderInterrupts();
  }
}

async function send(text: string): Promise<void> {
  if (active || text.trim() === '') return;
  if (!current.title) current.title = text.trim().slice(0, 40);
  renderThreadSelect();
  ui.prompt.value = '';
  await runTurn(current, { kind: 'prompt', text }, `playground-${randomUUID()}`);
}

async function resume(rosInvocationId: string, answers: ResumeAnswer[]): Promise<void> {
  if (active) return;
  await runTurn(current, { kind: 'resume', answers }, rosInvocationId, answers);
}

async function cancelActiveRun(): Promise<void> {
  const executionId = active && latestExecutionId(active.turn);
  if (!active || !executionId) return;
  ui.cancel.disabled = true;
  setStatus(PAGE_TEXT.cancelRequested);
  const outcome = await cancelExecution(gatewayRoot, tabStorage.token(), {
    executionId,
    threadId: active.thread.threadId,
    rosInvocationId: active.turn.rosInvocationId,
  }).catch((error: unknown) => ({ failure: describeFailure(error) }));
  if ('failure' in outcome)
    setStatus(PAGE_TEXT.cancelFailed(outcome.failure.code, outcome.failure.message), true);
  else if (active) setStatus(PAGE_TEXT.cancelAnswered(outcome.status));
}

function showTokenPanel(show: boolean): void {
  ui.tokenPanel.hidden = !show;
  if (show) ui.tokenInput.focus();
}

function wire(): void {
  ui.tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    tabStorage.saveToken(ui.tokenInput.value.trim());
    ui.tokenInput.value = '';
    showTokenPanel(false);
    setStatus(PAGE_TEXT.tokenSaved);
    ui.prompt.focus();
  });
  ui.changeToken.addEventListener('click', () => showTokenPanel(true));
  ui.promptForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void send(ui.prompt.value);
  });
  ui.prompt.addEventListener('keydown', (event) => {
    // Enter sends, Shift+Enter is a new line; never while an input method is composing a character.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.promptForm.requestSubmit();
    }
  });
  ui.cancel.addEventListener('click', () => void cancelActiveRun());
  ui.cwd.addEventListener('change', () => tabStorage.saveCwd(ui.cwd.value.trim()));
  ui.newThread.addEventListener('click', () => {
    selectThread(newThread());
    ui.prompt.focus();
  });
  ui.threadSelect.addEventListener('change', () => {
    const thread = threads.find((t) => t.threadId === ui.threadSelect.value);
    if (thread) selectThread(thread);
  });
}

async function start(): Promise<void> {
  wire();
  const config = await loadPageConfig();
  ui.cwd.value = tabStorage.cwd(config.defaultCwd);
  const saved = threads.find((t) => t.threadId === tabStorage.currentThreadId());
  selectThread(saved ?? threads.at(-1) ?? newThread());
  setStatus(PAGE_TEXT.idle);
  showTokenPanel(config.authRequired && tabStorage.token() === '');
  document.body.dataset.ready = 'true';
  await followUnfinishedTurn(current);
}

void start();
