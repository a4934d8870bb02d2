/** The fields of a terminal AG-UI event that name a run's outcome. */
export interface TerminalEventLike {
  readonly type: string;
  readonly code?: string;
  readonly outcome?: { readonly type?: string };
}

/** Outcome label of a run that ended without a terminal event: the client went away (docs/behaviour/cancel.md#client-disconnect). */
export const DISCONNECTED = 'disconnected';

/**
 * The `outcome` label of `agui_gateway_runs_total` for a terminal event, or undefined for any other event:
 * `success`, `interrupt` (RUN_FINISHED with an interrupt outcome), or the RUN_ERROR code. Pure.
 */
export function runOutcomeCode(event: TerminalEventLike): string | undefined {
  if (event.type === 'RUN_FINISHED') return event.outcome?.type === 'interrupt' ? 'interrupt' : 'success';
  if (event.type === 'RUN_ERROR') return event.code ?? 'RUN_ERROR';
  return undefined;
}
