import { EventType, type BaseEvent, type TextMessageContentEvent } from '@ag-ui/core';
import type { MapContext } from './map-context';
import { isStopState } from './run-outcome';
import type { UnwrappedFrame } from '../wire/unwrap-frame';
import { isWireObject, nonEmptyString, type WireObject } from '../wire/wire-value';

// Roles that count as the agent's voice; a missing role does too (docs/behaviour/events.md#text-and-reasoning).
const AGENT_ROLES = new Set<unknown>(['ROLE_AGENT', 'agent', undefined]);

/**
 * The agent's status text of one frame → TEXT_MESSAGE_* (docs/behaviour/events.md#text-and-reasoning). The kernel streams each delta as
 * a WORKING status message, then repeats the whole answer with `assistantFinal.complete: true`; that
 * repeat is dropped once text went out (kernel wire notes). When the frame has no status text and nothing
 * was emitted yet, a GetTask snapshot's trailing agent messages in `history` stand in.
 */
export function mapStatusText(frame: UnwrappedFrame, ctx: MapContext): BaseEvent[] {
  const message = statusMessageOf(frame);
  let text = statusTextOf(message);
  let messageId = nonEmptyString(message?.messageId);
  if (text.length === 0 && !ctx.state.hasEmittedText) {
    const fromHistory = historyAgentTextOf(frame.body);
    text = fromHistory.text;
    messageId ??= fromHistory.messageId;
  }
  if (text.length === 0) return [];
  if (isAssistantFinal(frame.iacCode) && ctx.state.hasEmittedText) return [];
  return mapStatusTextStrippingReplay(text, messageId, ctx);
}

/**
 * Cumulative-replay stripping (docs/behaviour/events.md#text-and-reasoning): the first time a message id is seen in the run, the prefix
 * already delivered before an interrupt (its digest is in `textSnapshotDigests`) is cut off. The message's
 * snapshot restarts from the whole replayed text, so the next digest covers everything the client has.
 */
function mapStatusTextStrippingReplay(
  text: string,
  messageId: string | undefined,
  ctx: MapContext,
): BaseEvent[] {
  const snapshots = ctx.state.textSnapshots;
  const replayKey = messageId ?? ctx.spans.currentMessageId;
  if (replayKey === undefined || !snapshots.claimFirstSight(replayKey)) return mapText(text, messageId, ctx);
  const prefixLength = snapshots.replayedPrefixLength(text);
  if (prefixLength === 0) return mapText(text, messageId, ctx);
  snapshots.replace(replayKey, text);
  if (prefixLength === text.length) return [];
  return mapText(text.slice(prefixLength), messageId, ctx, false, false);
}

/**
 * Emits `text` as content of `messageId` (else the current message, else a fresh `assistant-<hex>`).
 * Open reasoning closes first; a different message closes the current one unless `allowParallel`. The text
 * is added to the message's replay snapshot unless `recordSnapshot` is false.
 */
export function mapText(
  text: string,
  messageId: string | undefined,
  ctx: MapContext,
  allowParallel = false,
  recordSnapshot = true,
): BaseEvent[] {
  const events = ctx.spans.closeReasoning(ctx.now);
  const resolvedId = messageId ?? ctx.spans.currentMessageId ?? `assistant-${ctx.newId()}`;
  events.push(...ctx.spans.openText(resolvedId, ctx.now, allowParallel));
  const content: TextMessageContentEvent = {
    type: EventType.TEXT_MESSAGE_CONTENT,
    messageId: resolvedId,
    delta: text,
    timestamp: ctx.now,
  };
  events.push(content);
  if (recordSnapshot) ctx.state.textSnapshots.record(resolvedId, text);
  ctx.state.hasEmittedText = true;
  return events;
}

/**
 * A task snapshot (GetTask, or the task a subscription opens with) holds the turn's final text when the turn
 * ended (a stop state: the text is its status message, or its history) or the kernel already sent the whole
 * answer (`assistantFinal.complete`, which the task's metadata keeps, with the answer as its status text). A
 * client that joins the turn late gets that text as a normal run's end does (mapStatusText).
 */
export function holdsFinalText(snapshot: UnwrappedFrame): boolean {
  if (isStopState(snapshot.state)) return true;
  return isAssistantFinal(snapshot.iacCode) && statusTextOf(statusMessageOf(snapshot)).length > 0;
}

function isAssistantFinal(iacCode: WireObject | undefined): boolean {
  return isWireObject(iacCode?.assistantFinal) && iacCode.assistantFinal.complete === true;
}

/** The status message of a task/status update; a bare `message` frame is its own message. */
function statusMessageOf(frame: UnwrappedFrame): WireObject | undefined {
  if (frame.kind === 'message') return frame.body;
  const status = frame.body.status;
  return isWireObject(status) && isWireObject(status.message) ? status.message : undefined;
}

function statusTextOf(message: WireObject | undefined): string {
  return message && AGENT_ROLES.has(message.role) ? textOfParts(message.parts) : '';
}

const NO_HISTORY_TEXT = { text: '' } as const;

/**
 * The trailing run of agent messages in `history`, joined, with the last message id among them. The kernel's
 * history keeps every status message an update replaced: after an ended turn, its deltas and then the repeat
 * of the whole answer (docs/behaviour/a2a.md#the-kernels-own-behaviour). A last message that repeats the ones
 * before it — all of them, or, when the run reaches the start of a history cut at `historyLength`, the ones
 * listed — is that repeat, and the text alone.
 */
function historyAgentTextOf(body: WireObject): { text: string; messageId?: string } {
  if (!Array.isArray(body.history)) return NO_HISTORY_TEXT;
  const trailing: WireObject[] = [];
  let reachesStart = true;
  for (const message of [...body.history].reverse()) {
    if (!isWireObject(message)) break;
    if (message.role !== 'ROLE_AGENT' && message.role !== 'agent') {
      if (trailing.length > 0) {
        reachesStart = false;
        break;
      }
      continue;
    }
    trailing.unshift(message);
  }
  const messageId = trailing
    .map((message) => nonEmptyString(message.messageId))
    .filter(Boolean)
    .pop();
  const texts = trailing.map((message) => textOfParts(message.parts));
  const last = texts.pop() ?? '';
  const before = texts.join('');
  const isRepeat = texts.length > 0 && (last === before || (reachesStart && last.endsWith(before)));
  return { text: isRepeat ? last : before + last, messageId };
}

/** The parts' texts joined; a loop, not filter/map/join: it runs on every text delta. */
function textOfParts(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  let text = '';
  for (const part of parts) {
    if (isWireObject(part) && typeof part.text === 'string') text += part.text;
  }
  return text;
}
