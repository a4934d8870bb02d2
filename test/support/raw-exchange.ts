import { connect } from 'node:net';

/**
 * Writes raw bytes on a fresh connection and collects everything the server sends until it closes it
 * (a kept-alive socket never gets there: the test times out). Sending only a request's head and getting an
 * answer proves the server did not wait for the body.
 */
export async function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined); // the server may reset the connection after its answer
  socket.write(request);
  await closed;
  return received;
}
