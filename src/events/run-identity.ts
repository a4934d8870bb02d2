/** The AG-UI ids of the run being mapped. */
export interface RunIdentity {
  readonly threadId: string;
  readonly runId: string;
}
