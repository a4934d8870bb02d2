import type { A2aOutgoingMessage } from '../wire/a2a-wire';
import { buildA2aMessage } from '../run-input/build-a2a-message';
import { buildUserParts } from '../run-input/user-message-parts';
import type { AdmittedRun } from './admitted-run';

/**
 * The A2A message carrying the run's newest user message (docs/behaviour/a2a.md#the-message): a new turn, or with `taskId`
 * guidance for that live task. Throws INVALID_INPUT for a missing or unsupported user message.
 */
export async function userTurnMessage(run: AdmittedRun, taskId?: string): Promise<A2aOutgoingMessage> {
  const { messageId, parts } = await buildUserParts(run.input.messages);
  return buildA2aMessage({
    messageId,
    parts,
    contextId: run.contextId,
    props: run.props,
    cwd: run.cwd,
    language: run.language,
    ...(taskId !== undefined ? { taskId } : {}),
  });
}
