import { createServer } from 'node:net';

/**
 * A port that was free on 127.0.0.1 a moment ago, for the managed child to bind (docs/behaviour/a2a.md#managed-child does the
 * same). The child binds it itself, so a race with another process is possible; start() then fails.
 */
export function findFreeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
