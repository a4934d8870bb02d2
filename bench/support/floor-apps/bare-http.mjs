// The floor of bench/floor.ts without a framework: node:http answering every request with one tiny line.
// Port from argv[2], on 127.0.0.1.
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end('data: hi\n\n');
  });
});
server.listen(Number(process.argv[2]), '127.0.0.1');
