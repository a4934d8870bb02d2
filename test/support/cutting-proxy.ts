import { createServer, createConnection, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { trackedClose } from './open-resources';

export interface CuttingProxy {
  /** Base URL ending with '/': give it to the client instead of the gateway's. */
  readonly url: string;
  /** Connections the client opened through the proxy so far. */
  readonly connections: number;
  /**
   * The next connection is cut (both sockets destroyed, as a network switch does) once `afterBytes` bytes
   * of the gateway's answer went through. Resolves when it was cut.
   */
  cutNext(afterBytes: number): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy in front of the gateway that can drop a client's connection mid-response. */
export async function startCuttingProxy(targetUrl: string): Promise<CuttingProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let armed: { afterBytes: number; cut: () => void } | undefined;
  let connections = 0;
  const server = createServer((client) => {
    connections++;
    const fault = armed;
    armed = undefined;
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    let forwarded = 0;
    upstream.on('data', (chunk: Buffer) => {
      if (fault && forwarded + chunk.length >= fault.afterBytes) {
        client.write(chunk.subarray(0, Math.max(0, fault.afterBytes - forwarded)));
        client.destroy();
        upstream.destroy();
        fault.cut();
        return;
      }
      forwarded += chunk.length;
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = trackedClose(`cutting proxy on ${port}`, async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    get connections() {
      return connections;
    },
    cutNext: (afterBytes) => new Promise<void>((cut) => (armed = { afterBytes, cut })),
    close,
  };
}
