import { EventType, type BaseEvent } from '@ag-ui/core';
import type { Json } from './interrupt-helpers';
import { runInput } from './run-input';

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
