import { parseRunAgentInput } from '../../src/run-input/parse-run-input';
import type { AdmittedRun } from '../../src/runs/admitted-run';
import type { RunPersistence } from '../../src/threads/run-persistence';

/**
 * The AdmittedRun admission would make of `body` (a RunAgentInput, parsed as the request reader parses it),
 * for unit specs of the engine: ids and workspace from the body, the thread's binding from `binding`.
 */
export function admittedRunFixture(
  body: Record<string, unknown>,
  binding: { readonly executionId: string; readonly contextId: string; readonly persistence: RunPersistence },
): AdmittedRun {
  const input = parseRunAgentInput(body);
  const props = input.forwardedProps.iacCode;
  return {
    input,
    props,
    language: 'en',
    threadId: input.threadId,
    runId: input.runId,
    admittedRunId: input.runId,
    executionId: binding.executionId,
    contextId: binding.contextId,
    rosInvocationId: props.rosInvocationId,
    cwd: props.cwd,
    persistence: binding.persistence,
    face: 'iac-code',
    admittedAtMs: 0,
  };
}
