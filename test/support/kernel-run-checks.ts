import { EventType, type BaseEvent, type Interrupt } from '@ag-ui/core';
import { expectConformantEvents } from './agui-conformance';
import { interruptsOf, typesOf, type Json } from './interrupt-helpers';
import { runInput } from './run-input';
import { postRun } from './sse-client';

/** What `iac-code.session.v1` announces (the ids the cancel route and GetTask take). */
export interface AnnouncedSession {
  readonly executionId: string;
  readonly taskId: string;
  readonly sessionId: string;
}

export function sessionOf(events: readonly BaseEvent[]): AnnouncedSession {
  const [session] = customNamed(events, 'iac-code.session.v1');
  if (!session) throw new Error(`the run announced no session: ${events.map((e) => e.type).join(', ')}`);
  return session.value as AnnouncedSession;
}

/** The CUSTOM events of one name, in order. */
export function customNamed(events: readonly BaseEvent[], name: string): Json[] {
  return events.filter((event) => event.type === EventType.CUSTOM && (event as Json).name === name) as Json[];
}

/** `{toolCallId, content}` of every TOOL_CALL_RESULT. */
export function toolResultsOf(events: readonly BaseEvent[]): { toolCallId: string; content: string }[] {
  return (events.filter((event) => event.type === EventType.TOOL_CALL_RESULT) as Json[]).map((event) => ({
    toolCallId: event.toolCallId,
    content: event.content,
  }));
}

/** A turn in a workspace under the kernel's allowed root. */
export function kernelTurn(args: {
  threadId: string;
  runId: string;
  text: string;
  cwd: string;
  iacCode?: Record<string, unknown>;
}) {
  return runInput({
    threadId: args.threadId,
    runId: args.runId,
    text: args.text,
    iacCode: { cwd: args.cwd, ...args.iacCode },
  });
}

/** The resume answer that lets a parked tool run once. */
export const ALLOW_ONCE = { status: 'resolved', payload: { decision: 'allow_once' } } as const;

/** Posts a turn that must end, conformant, at exactly one permission interrupt; returns its events and it. */
export async function parkPermission(
  gatewayUrl: string,
  body: unknown,
): Promise<{ events: BaseEvent[]; interrupt: Interrupt }> {
  const response = await postRun(gatewayUrl, body);
  if (response.status !== 200) throw new Error(`the turn answered HTTP ${response.status}: ${response.text}`);
  await expectConformantEvents(response.events);
  const interrupts = interruptsOf(response.events) ?? [];
  if (interrupts.length !== 1 || (interrupts[0].metadata as Json | undefined)?.kind !== 'permission') {
    throw new Error(`expected one permission interrupt, the run sent ${typesOf(response.events).join(', ')}`);
  }
  return { events: response.events, interrupt: interrupts[0] };
}
