/** A transport's back-pressure, as the run sees it. */
export interface RunFlowControl {
  /** Undefined when the transport can take more now; else a promise that settles once it can. */
  whenWritable(): Promise<void> | undefined;
}
