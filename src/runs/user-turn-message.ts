import type { A2aOutgoingMessage } from '../a2a/a2a-gateway';
import { buildA2aMessage } from './input/build-a2a-message';
import { buildUserParts } from './input/user-message-parts';
import type { AdmittedRun } from './run-request';

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
