import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import * as os from 'node:os';
import { useGateway } from '../support/use-gateway';

/**
 * The client users use, against the running service on its embedded demo agent: two runs on one thread,
 * the second resending the whole conversation (with the assistant's answer) as HttpAgent does.
 */
describe('HttpAgent end to end', () => {
  const gateway = useGateway({
    env: {
      IAC_CODE_AGUI_UPSTREAM: 'demo',
      IAC_CODE_AGUI_AUTH_TOKEN: 'e2e-token',
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    },
  });

  it.each([{ path: '' }, { path: 'invocations' }])(
    'runs two turns on one thread via /$path',
    async ({ path }) => {
      const agent = new HttpAgent({
        url: `${gateway.url}${path}`,
        headers: { Authorization: 'Bearer e2e-token' },
        threadId: `e2e-thread-${path || 'root'}`,
      });
      const forwardedProps = {
        iacCode: { schemaVersion: 1, rosInvocationId: 'invocation-e2e', cwd: os.tmpdir() },
      };
      const turns: string[][] = [];
      for (const text of ['Create a VPC template', 'Now add a security group']) {
        agent.messages.push({ id: `user-${turns.length}`, role: 'user', content: text });
        const seen: string[] = [];
        const failures: unknown[] = [];
        await agent.runAgent(
          { runId: `run-${path || 'root'}-${turns.length}`, forwardedProps },
          {
            onEvent: ({ event }: { event: BaseEvent }) => void seen.push(event.type),
            onRunFailed: ({ error }: { error: Error }) => void failures.push(error),
          },
        );
        expect(failures).toEqual([]);
        turns.push(seen);
      }
      for (const seen of turns) {
        expect(seen[0]).toBe('RUN_STARTED');
        expect(seen.at(-1)).toBe('RUN_FINISHED');
        expect(seen).toContain('TEXT_MESSAGE_CONTENT');
      }
      // The second request carried the first answer back: the assistant message is in the history.
      expect(agent.messages.filter((message) => message.role === 'assistant').length).toBeGreaterThanOrEqual(
        2,
      );
    },
  );
});
