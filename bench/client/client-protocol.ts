/** What the bench runner and the client process exchange over IPC. */

export type StreamFormat = 'agui' | 'a2a';

/** Where and how to POST one run; `%N%` in the body is replaced by a number unique in the client. */
export interface StreamTarget {
  readonly url: string;
  readonly bodyTemplate: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly format: StreamFormat;
}

export type ClientCommand =
  | { readonly kind: 'run'; readonly target: StreamTarget }
  | { readonly kind: 'sequential'; readonly target: StreamTarget; readonly runs: number }
  | { readonly kind: 'concurrent'; readonly target: StreamTarget; readonly runs: number }
  | { readonly kind: 'open'; readonly target: StreamTarget; readonly runs: number; readonly batch: number }
  | {
      readonly kind: 'open-within';
      readonly target: StreamTarget;
      readonly runs: number;
      readonly batch: number;
      readonly firstEventTimeoutMs: number;
    }
  | { readonly kind: 'hold-figures'; readonly sinceUs: number }
  | { readonly kind: 'close-open' }
  | { readonly kind: 'exit' };

/** What the client saw of one response (times in shared-clock µs). */
export interface StreamReport {
  readonly status: number;
  readonly startedUs: number;
  readonly firstEventUs?: number;
  readonly firstTextUs?: number;
  readonly endedUs: number;
  /** `data:` records. */
  readonly events: number;
  /** Socket reads (`data` chunks): events / chunks shows how the sender batched its writes. */
  readonly chunks: number;
  /** SSE comments (`: heartbeat`). */
  readonly comments: number;
  /** AG-UI `type` of the last record, or the A2A frame class (`TEXT`, `FRAME`). */
  readonly lastType: string;
  /** Per paced delta: read time − upstream write stamp. */
  readonly latencyUs: number[];
  /** Per paced delta: read time − the upstream's schedule for it. */
  readonly delayUs: number[];
  readonly error?: string;
}

export interface ClientReply {
  readonly seq: number;
  readonly result?: unknown;
  readonly error?: string;
}

/** The reply to `open-within`. */
export interface OpenWithinReport {
  readonly opened: number;
  /** Responses that ended while the runs should be open. */
  readonly ended: number;
}

/** The reply to `hold-figures`: what the open runs read from `sinceUs` on (shared-clock µs). */
export interface HoldFigures {
  /** Runs still open. */
  readonly open: number;
  /** Runs that read no paced delta since `sinceUs` (queued by the relay rather than relayed). */
  readonly starved: number;
  /** Per paced delta read: read time − the upstream's schedule for it. */
  readonly delayUs: number[];
  /** Per heartbeat read: the silence before it (read time − the previous record's read time). */
  readonly heartbeatGapUs: number[];
}
