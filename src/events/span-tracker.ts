import {
  EventType,
  type BaseEvent,
  type ReasoningEndEvent,
  type ReasoningMessageEndEvent,
  type ReasoningMessageStartEvent,
  type ReasoningStartEvent,
  type StepFinishedEvent,
  type StepStartedEvent,
  type TextMessageEndEvent,
  type TextMessageStartEvent,
  type ToolCallEndEvent,
  type ToolCallStartEvent,
} from '@ag-ui/core';
import { ifDefined } from '../wire/wire-value';

const NO_EVENTS: readonly BaseEvent[] = Object.freeze([]);

/**
 * The AG-UI spans one run has open: text messages, reasoning spans, tool calls and steps. It emits the
 * START/END events itself so a span is never opened twice or left open: `verifyEvents` rejects both, and
 * RUN_FINISHED is rejected while anything is open (agui docs/behaviour/run-input.md#tools rules 6–9, 12). One per run (`new`).
 */
export class SpanTracker {
  private readonly openMessages = new Set<string>();
  private readonly openReasoningIds = new Set<string>();
  private readonly openTools = new Set<string>();
  /** Step key → AG-UI stepName, for steps opened in this run (docs/behaviour/events.md#pipeline-envelopes step lifecycle). */
  private readonly runSteps = new Map<string, string>();
  private current: string | undefined;

  /** `onTextClose` hears every message that ends, before its END event (the replay digest, docs/behaviour/events.md#text-and-reasoning). */
  constructor(private readonly onTextClose?: (messageId: string) => void) {}

  /** The text message new text continues and new tool calls hang under (`parentMessageId`). */
  get currentMessageId(): string | undefined {
    return this.current;
  }

  isTextOpen(messageId: string): boolean {
    return this.openMessages.has(messageId);
  }

  isToolOpen(toolCallId: string): boolean {
    return this.openTools.has(toolCallId);
  }

  isStepOpen(stepKey: string): boolean {
    return this.runSteps.has(stepKey);
  }

  /**
   * Makes `messageId` the current text message, opening it if needed. A new message closes the previous
   * current one unless the caller streams parallel messages (Pipeline candidates, docs/behaviour/events.md#pipeline-envelopes).
   */
  openText(messageId: string, now: number, allowParallel = false): readonly BaseEvent[] {
    // Every text delta after the first lands here with its message open: nothing to build.
    if (this.openMessages.has(messageId)) {
      this.current = messageId;
      return NO_EVENTS;
    }
    const events: BaseEvent[] = [];
    if (!allowParallel && this.current !== undefined) events.push(...this.closeText(this.current, now));
    this.openMessages.add(messageId);
    const start: TextMessageStartEvent = {
      type: EventType.TEXT_MESSAGE_START,
      messageId,
      role: 'assistant',
      timestamp: now,
    };
    events.push(start);
    this.current = messageId;
    return events;
  }

  closeText(messageId: string, now: number): BaseEvent[] {
    if (!this.openMessages.delete(messageId)) return [];
    this.onTextClose?.(messageId);
    // Like the original, the current message falls back to another open one (oldest first).
    if (this.current === messageId) this.current = this.openMessages.values().next().value;
    const end: TextMessageEndEvent = { type: EventType.TEXT_MESSAGE_END, messageId, timestamp: now };
    return [end];
  }

  /** Opens the reasoning span and its reasoning message together, once per id (docs/behaviour/events.md#text-and-reasoning). */
  openReasoning(reasoningId: string, now: number): BaseEvent[] {
    if (this.openReasoningIds.has(reasoningId)) return [];
    this.openReasoningIds.add(reasoningId);
    const span: ReasoningStartEvent = {
      type: EventType.REASONING_START,
      messageId: reasoningId,
      timestamp: now,
    };
    const message: ReasoningMessageStartEvent = {
      type: EventType.REASONING_MESSAGE_START,
      messageId: reasoningId,
      role: 'reasoning',
      timestamp: now,
    };
    return [span, message];
  }

  isReasoningOpen(reasoningId: string): boolean {
    return this.openReasoningIds.has(reasoningId);
  }

  /** Closes every open reasoning span, sorted by id: text starting ends the thinking (docs/behaviour/events.md#text-and-reasoning). */
  closeReasoning(now: number): BaseEvent[] {
    // The common case on every text delta: nothing open, nothing to sort.
    if (this.openReasoningIds.size === 0) return [];
    const events = [...this.openReasoningIds].sort().flatMap((messageId) => {
      const message: ReasoningMessageEndEvent = {
        type: EventType.REASONING_MESSAGE_END,
        messageId,
        timestamp: now,
      };
      const span: ReasoningEndEvent = { type: EventType.REASONING_END, messageId, timestamp: now };
      return [message, span];
    });
    this.openReasoningIds.clear();
    return events;
  }

  /** TOOL_CALL_START under the current text message; nothing if the call is already open (docs/behaviour/events.md#tools). */
  openTool(toolCallId: string, toolCallName: string, now: number): BaseEvent[] {
    if (this.openTools.has(toolCallId)) return [];
    this.openTools.add(toolCallId);
    const start: ToolCallStartEvent = {
      type: EventType.TOOL_CALL_START,
      toolCallId,
      toolCallName,
      ...ifDefined('parentMessageId', this.current),
      timestamp: now,
    };
    return [start];
  }

  closeTool(toolCallId: string, now: number): BaseEvent[] {
    if (!this.openTools.delete(toolCallId)) return [];
    const end: ToolCallEndEvent = { type: EventType.TOOL_CALL_END, toolCallId, timestamp: now };
    return [end];
  }

  openStep(stepKey: string, stepName: string, now: number): BaseEvent[] {
    if (this.runSteps.has(stepKey)) return [];
    this.runSteps.set(stepKey, stepName);
    const start: StepStartedEvent = { type: EventType.STEP_STARTED, stepName, timestamp: now };
    return [start];
  }

  closeStep(stepKey: string, now: number): BaseEvent[] {
    const stepName = this.runSteps.get(stepKey);
    if (stepName === undefined) return [];
    this.runSteps.delete(stepKey);
    const finished: StepFinishedEvent = { type: EventType.STEP_FINISHED, stepName, timestamp: now };
    return [finished];
  }

  /**
   * Closes everything, in the original's order: reasoning (sorted by id), tool calls (sorted), text
   * messages (sorted), then steps sorted by key so `candidate:…` precedes `step:…` (docs/behaviour/events.md#run-lifecycle).
   * A second call returns nothing.
   */
  closeAll(now: number): BaseEvent[] {
    const events = this.closeReasoning(now);
    for (const toolCallId of [...this.openTools].sort()) events.push(...this.closeTool(toolCallId, now));
    for (const messageId of [...this.openMessages].sort()) events.push(...this.closeText(messageId, now));
    for (const stepKey of [...this.runSteps.keys()].sort()) events.push(...this.closeStep(stepKey, now));
    return events;
  }
}
