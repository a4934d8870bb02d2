/**
 * What the page remembers about a thread, kept in sessionStorage so a reload shows the same session.
 * Plain data only (no DOM, no HttpAgent): the conversation and the timeline are rebuilt from it.
 */

/** An AG-UI event as it came off the wire; fields are read defensively by the views. */
export type WireEvent = { readonly type: string; readonly timestamp?: number } & Readonly<
  Record<string, unknown>
>;

/** One answer of a resume, with the label the user clicked (shown in the conversation). */
export interface ResumeAnswer {
  readonly interruptId: string;
  readonly label: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

export type TurnRequest =
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'resume'; readonly answers: readonly ResumeAnswer[] };

/** A failure outside the event stream: an HTTP error before it started, or the client refusing the run. */
export interface TurnFailure {
  readonly code: string;
  readonly message: string;
}

export interface TurnRecord {
  readonly runId: string;
  /** A new one per prompt; the same for the resumes of that turn (the gateway checks it). */
  readonly rosInvocationId: string;
  readonly request: TurnRequest;
  readonly events: WireEvent[];
  failure?: TurnFailure;
}

export interface ThreadRecord {
  readonly threadId: string;
  /** The first prompt, shortened: what the thread selector shows. */
  title: string;
  readonly turns: TurnRecord[];
  /** HttpAgent's message history, resent on every run as AG-UI clients do. */
  messages: unknown[];
}
