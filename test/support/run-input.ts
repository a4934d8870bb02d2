import * as os from 'node:os';

/** A standard RunAgentInput, with overrides per test. */
export function runInput(
  overrides: {
    threadId?: string;
    runId?: string;
    text?: string;
    iacCode?: Record<string, unknown>;
    extra?: Record<string, unknown>;
  } = {},
) {
  return {
    threadId: overrides.threadId ?? 'thread-1',
    runId: overrides.runId ?? 'run-1',
    state: {},
    messages: [{ id: 'message-1', role: 'user', content: overrides.text ?? 'hello' }],
    tools: [],
    context: [],
    forwardedProps: {
      iacCode: { schemaVersion: 1, rosInvocationId: 'invocation-1', cwd: os.tmpdir(), ...overrides.iacCode },
    },
    ...overrides.extra,
  };
}
