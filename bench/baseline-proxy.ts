/**
 * The floor of the comparison : a minimal Node pass-through proxy that forwards a request to the
 * upstream and the upstream's response bytes back, with no parsing. Whatever the gateway costs above this
 * is the price of AG-UI mapping, not of being an HTTP hop in Node.
 * Process entry: `node --import tsx bench/baseline-proxy.ts <upstream url>`; prints `BENCH_PROXY_READY <url>`.
 */
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { PROXY_READY } from './support/ready-lines';

const upstream = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
// Hop-by-hop headers belong to each connection (RFC 9110 §7.6.1), not to the forwarded request.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

const server = createServer({ noDelay: true }, (request, response) => {
  const forwarded = httpRequest(
    {
      agent,
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: { ...endToEnd(request.headers), host: upstream.host },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      pipeline(answer, response, () => undefined);
    },
  );
  forwarded.on('error', () => response.destroy());
  response.on('close', () => forwarded.destroy());
  pipeline(request, forwarded, () => undefined);
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${PROXY_READY} http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
});
process.on('SIGTERM', () => process.exit(0));
