import type { Language } from '../i18n/message-catalogue';
import type { Face } from '../run-input/run-request';
import type { IacCodeProps, RunAgentInput } from '../run-input/parse-run-input';
import type { RunPersistence } from '../threads/run-persistence';
import type { PythonJsonValue } from '../wire/python-json-value';

/** A run that passed admission: its identities are fixed and its thread slot is held until release. */
export interface AdmittedRun {
  readonly input: RunAgentInput;
  readonly props: IacCodeProps;
  /** `resume` as Python parsed it: the answers are digested from it (docs/behaviour/state.md#digests). */
  readonly pythonResume?: PythonJsonValue;
  readonly language: Language;
  readonly threadId: string;
  /** The client's runId: every event of the run carries it. */
  readonly runId: string;
  /**
   * The id the run is recorded and holds the thread's slot under: `runId`, unless a resume reused the runId
   * of the interrupted run (generic clients mode), which then runs under an id of its own.
   */
  readonly admittedRunId: string;
  readonly executionId: string;
  readonly contextId: string;
  readonly rosInvocationId: string;
  /** The resolved workspace (docs/behaviour/run-input.md#cwd step 7). */
  readonly cwd: string;
  /** The run's durable writes to its thread. */
  readonly persistence: RunPersistence;
  readonly face: Face;
  /** The authenticated caller's principal; undefined when anonymous (docs/behaviour/state.md#caller-binding). */
  readonly principal?: string;
  /** When admission completed (ms): time to first event is measured from here. */
  readonly admittedAtMs: number;
}
