import type { ThreadRecord, TurnRecord, WireEvent } from './thread-record';

/**
 * The rendered conversation of a thread, rebuilt from its recorded events (pure; the DOM view draws it).
 * Entries keep the order in which they began; a tool result that arrives in a later run (a resume answers
 * the interrupted run's tool call, docs/behaviour/run-input.md#envelope) lands on the original tool call.
 */
export type ConversationEntry =
  | { readonly kind: 'user'; readonly key: string; readonly text: string }
  | { readonly kind: 'answer'; readonly key: string; readonly labels: readonly string[] }
  | { readonly kind: 'assistant'; readonly key: string; text: string }
  | { readonly kind: 'reasoning'; readonly key: string; text: string }
  | {
      readonly kind: 'tool';
      readonly key: string;
      readonly name: string;
      args: string;
      result?: string;
      readonly progress: string[];
    }
  | { readonly kind: 'step'; readonly key: string; readonly name: string; finished: boolean }
  | { readonly kind: 'pipeline'; readonly key: string; readonly eventType: string; readonly detail: string }
  | { readonly kind: 'artifact'; readonly key: string; readonly name: string; readonly text: string }
  | { readonly kind: 'custom'; readonly key: string; readonly name: string; readonly value: unknown }
  | { readonly kind: 'interrupt'; readonly key: string; readonly message: string }
  | { readonly kind: 'usage'; readonly key: string; readonly usage: readonly TokenCounts[] }
  | { readonly kind: 'error'; readonly key: string; readonly code: string; readonly message: string }
  | { readonly kind: 'finished'; readonly key: string; readonly outcome: string };

export interface TokenCounts {
  readonly provider?: string;
  readonly model?: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

type Entry = ConversationEntry;
type Tool = Extract<Entry, { kind: 'tool' }>;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** TokenUsage[] from RUN_FINISHED or RUN_ERROR, with missing counts as 0 and totals filled in. */
export function readUsage(value: unknown): TokenCounts[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((usage) => {
    const inputTokens = count(usage.inputTokens);
    const outputTokens = count(usage.outputTokens);
    return {
      ...(typeof usage.provider === 'string' ? { provider: usage.provider } : {}),
      ...(typeof usage.model === 'string' ? { model: usage.model } : {}),
      inputTokens,
      outputTokens,
      totalTokens: usage.totalTokens === undefined ? inputTokens + outputTokens : count(usage.totalTokens),
    };
  });
}

/** Tool content is a string or AG-UI content parts; parts are shown by their text. */
function toolContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
    .join('\n');
}

function artifactText(value: Readonly<Record<string, unknown>>): string {
  const parts = Array.isArray(value.parts) ? value.parts : [];
  return parts
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
    .join('\n');
}

/** `iac-code.pipeline.v1` (docs/behaviour/events.md#pipeline-recovery): the event type, its scope and the ids worth reading. */
function pipelineDetail(value: Readonly<Record<string, unknown>>): string {
  const data = isObject(value.data) ? value.data : {};
  const names = ['pipelineName', 'stepName', 'candidateId', 'subPipelineId', 'status']
    .filter((name) => typeof data[name] === 'string')
    .map((name) => `${name}=${String(data[name])}`);
  return [typeof value.scope === 'string' ? `scope=${value.scope}` : '', ...names].filter(Boolean).join(' ');
}

class ConversationBuilder {
  readonly entries: Entry[] = [];
  private readonly open = new Map<string, Extract<Entry, { kind: 'assistant' | 'reasoning' }>>();
  private readonly tools = new Map<string, Tool>();
  private readonly steps = new Map<string, Extract<Entry, { kind: 'step' }>>();
  private sequence = 0;

  private key(prefix: string): string {
    this.sequence += 1;
    return `${prefix}-${this.sequence}`;
  }

  private tool(toolCallId: string, name: string): Tool {
    let tool = this.tools.get(toolCallId);
    if (!tool) {
      tool = { kind: 'tool', key: this.key('tool'), name, args: '', progress: [] };
      this.tools.set(toolCallId, tool);
      this.entries.push(tool);
    }
    return tool;
  }

  addTurn(turn: TurnRecord): void {
    if (turn.request.kind === 'prompt') {
      this.entries.push({ kind: 'user', key: this.key('user'), text: turn.request.text });
    } else {
      this.entries.push({
        kind: 'answer',
        key: this.key('answer'),
        labels: turn.request.answers.map((a) => a.label),
      });
    }
    // Message ids are reused across the runs of one execution (a resume continues the same message), so
    // spans are tracked per turn: a new run starts a new bubble.
    this.open.clear();
    for (const event of turn.events) this.addEvent(event);
    if (turn.failure) this.entries.push({ kind: 'error', key: this.key('error'), ...turn.failure });
  }

  private addEvent(event: WireEvent): void {
    switch (event.type) {
      case 'TEXT_MESSAGE_START':
      case 'REASONING_MESSAGE_START': {
        const kind = event.type === 'TEXT_MESSAGE_START' ? 'assistant' : 'reasoning';
        const entry: Extract<Entry, { kind: 'assistant' | 'reasoning' }> = {
          kind,
          key: this.key(kind),
          text: '',
        };
        this.open.set(`${kind}:${text(event.messageId)}`, entry);
        this.entries.push(entry);
        return;
      }
      case 'TEXT_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_CONTENT': {
        const kind = event.type === 'TEXT_MESSAGE_CONTENT' ? 'assistant' : 'reasoning';
        const entry = this.open.get(`${kind}:${text(event.messageId)}`);
        if (entry) entry.text += text(event.delta);
        return;
      }
      case 'TOOL_CALL_START':
        this.tool(text(event.toolCallId), text(event.toolCallName));
        return;
      case 'TOOL_CALL_ARGS':
        this.tool(text(event.toolCallId), '').args += text(event.delta);
        return;
      case 'TOOL_CALL_RESULT':
        this.tool(text(event.toolCallId), '').result = toolContent(event.content);
        return;
      case 'STEP_STARTED': {
        const step = {
          kind: 'step' as const,
          key: this.key('step'),
          name: text(event.stepName),
          finished: false,
        };
        this.steps.set(step.name, step);
        this.entries.push(step);
        return;
      }
      case 'STEP_FINISHED': {
        const step = this.steps.get(text(event.stepName));
        if (step) step.finished = true;
        return;
      }
      case 'CUSTOM':
        this.addCustom(text(event.name), event.value);
        return;
      case 'RUN_FINISHED':
        this.addFinished(event);
        return;
      case 'RUN_ERROR': {
        const usage = readUsage(event.usage);
        if (usage.length > 0) this.entries.push({ kind: 'usage', key: this.key('usage'), usage });
        this.entries.push({
          kind: 'error',
          key: this.key('error'),
          code: text(event.code),
          message: text(event.message),
        });
        return;
      }
      default:
        return;
    }
  }

  private addCustom(name: string, value: unknown): void {
    const data = isObject(value) ? value : {};
    if (name === 'iac-code.session.v1') return; // shown in the run status line, not as a message
    if (name === 'iac-code.tool-progress.v1' && typeof data.toolUseId === 'string') {
      this.tool(data.toolUseId, text(data.name)).progress.push(text(data.message) || text(data.status));
    } else if (name === 'iac-code.pipeline.v1') {
      this.entries.push({
        kind: 'pipeline',
        key: this.key('pipeline'),
        eventType: text(data.eventType),
        detail: pipelineDetail(data),
      });
    } else if (name === 'iac-code.artifact.v1') {
      this.entries.push({
        kind: 'artifact',
        key: this.key('artifact'),
        name: text(data.name),
        text: artifactText(data),
      });
    } else {
      this.entries.push({ kind: 'custom', key: this.key('custom'), name, value });
    }
  }

  private addFinished(event: WireEvent): void {
    const usage = readUsage(event.usage);
    if (usage.length > 0) this.entries.push({ kind: 'usage', key: this.key('usage'), usage });
    const outcome = isObject(event.outcome) ? event.outcome : {};
    if (outcome.type === 'interrupt' && Array.isArray(outcome.interrupts)) {
      for (const interrupt of outcome.interrupts.filter(isObject)) {
        this.entries.push({
          kind: 'interrupt',
          key: this.key('interrupt'),
          message: text(interrupt.message) || text(interrupt.id),
        });
      }
    }
    this.entries.push({
      kind: 'finished',
      key: this.key('finished'),
      outcome: text(outcome.type) || 'success',
    });
  }
}

export function buildConversation(thread: Pick<ThreadRecord, 'turns'>): ConversationEntry[] {
  const builder = new ConversationBuilder();
  for (const turn of thread.turns) builder.addTurn(turn);
  return builder.entries;
}

/** The sum of every run's usage in the thread (RUN_FINISHED.usage and RUN_ERROR.usage). */
export function sumUsage(thread: Pick<ThreadRecord, 'turns'>): {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
} {
  const totals = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const turn of thread.turns) {
    for (const event of turn.events) {
      if (event.type !== 'RUN_FINISHED' && event.type !== 'RUN_ERROR') continue;
      for (const usage of readUsage(event.usage)) {
        totals.inputTokens += usage.inputTokens;
        totals.outputTokens += usage.outputTokens;
        totals.totalTokens += usage.totalTokens;
      }
    }
  }
  return totals;
}

/** The executionId of the thread's newest `iac-code.session.v1` event (what the cancel extension needs). */
export function latestExecutionId(turn: Pick<TurnRecord, 'events'> | undefined): string | undefined {
  const session = turn?.events.findLast(
    (event) => event.type === 'CUSTOM' && event.name === 'iac-code.session.v1',
  );
  const value = session && isObject(session.value) ? session.value : undefined;
  return typeof value?.executionId === 'string' ? value.executionId : undefined;
}

/**
 * The interrupts still open on the thread, with the turn that raised them (its rosInvocationId is the one
 * every resume of that turn must carry): the newest run that started, when it ended with outcome
 * `interrupt`. Turns refused before their stream (HTTP errors) changed nothing and are skipped; a resume
 * that ended in RUN_ERROR (e.g. RESUME_PAYLOAD_INVALID) leaves the previous interrupts to answer again.
 */
export function findOpenInterrupts(
  thread: Pick<ThreadRecord, 'turns'>,
): { readonly turn: TurnRecord; readonly interrupts: Readonly<Record<string, unknown>>[] } | undefined {
  for (let index = thread.turns.length - 1; index >= 0; index -= 1) {
    const turn = thread.turns[index];
    if (turn.failure || !turn.events.some((event) => event.type === 'RUN_STARTED')) continue;
    const finished = turn.events.findLast((event) => event.type === 'RUN_FINISHED');
    if (!finished) {
      if (turn.request.kind === 'resume') continue;
      return undefined;
    }
    const outcome = isObject(finished.outcome) ? finished.outcome : {};
    if (outcome.type !== 'interrupt' || !Array.isArray(outcome.interrupts)) return undefined;
    return { turn, interrupts: outcome.interrupts.filter(isObject) };
  }
  return undefined;
}
