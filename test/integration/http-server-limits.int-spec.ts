import * as net from 'node:net';
import { parseSse, postRun } from '../support/sse-client';
import { runInput } from '../support/run-input';
import { useGateway } from '../support/use-gateway';

/**
 * The server's own limits against real sockets: a client sending its headers slowly (slowloris) or stalling
 * in its body is cut off and its connection closed; a run streaming for longer than the request deadline is
 * not. Short limits here; the defaults are in README "Configuration".
 */
describe('HTTP server limits', () => {
  const gateway = useGateway({
    env: {
      IAC_CODE_AGUI_UPSTREAM: 'demo',
      IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS: '0.5',
      IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS: '1',
      IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS: '0.5',
    },
  });
  let port: number;
  beforeAll(() => {
    port = Number(new URL(gateway.url).port);
  });

  /** Opens a raw connection, lets `talk` write to it, and resolves with everything read once the server closes it. */
  function converse(
    talk: (socket: net.Socket) => void,
    onPort = port,
  ): Promise<{ received: string; closedByServer: boolean }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(onPort, '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('error', reject);
      socket.on('end', () => socket.end());
      socket.on('close', () =>
        resolve({ received, closedByServer: !socket.writableEnded || received !== '' }),
      );
      socket.on('connect', () => talk(socket));
    });
  }

  it('closes a connection whose headers never finish (slowloris)', async () => {
    let linesSent = 0;
    let drip: NodeJS.Timeout | undefined;
    const { received } = await converse((socket) => {
      socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      drip = setInterval(() => {
        if (!socket.destroyed) socket.write(`X-Drip-${linesSent++}: x\r\n`);
      }, 50);
    });
    clearInterval(drip);
    const [head, payload] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(payload)).toEqual({
      error: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.' },
    });
    expect(linesSent).toBeGreaterThan(0);
  });

  it.each([
    { route: '', face: 'the JSON envelope' },
    { route: 'invocations', face: 'one RUN_ERROR frame' },
  ])(
    'answers a body still trickling at the request deadline with 408 REQUEST_TIMEOUT in $face',
    async ({ route }) => {
      // The body idle limit is far away here: only the whole-request deadline can end this request.
      const own = await gateway.start({ IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS: '60' });
      const ownPort = Number(new URL(own.url).port);
      let drip: NodeJS.Timeout | undefined;
      const received = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(ownPort, '127.0.0.1');
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
        socket.on('connect', () => {
          socket.write(
            `POST /${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
              'Content-Length: 1000000\r\n\r\n{',
          );
          drip = setInterval(() => (socket.destroyed ? undefined : socket.write(' ')), 100);
        });
      });
      clearInterval(drip);
      const [head, ...rest] = received.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      const body = rest.join('\r\n\r\n');
      if (route === '')
        expect(JSON.parse(body)).toEqual({
          error: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.' },
        });
      else
        expect(parseSse(body).events).toEqual([
          expect.objectContaining({ type: 'RUN_ERROR', code: 'REQUEST_TIMEOUT' }),
        ]);
    },
  );

  describe('a stalled body', () => {
    // The request deadline is far away here: only the body idle limit can end these requests, however slowly
    // the machine gets to them.
    let stalledPort: number;
    beforeAll(async () => {
      const own = await gateway.start({
        IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS: '20',
        IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS: '60',
      });
      stalledPort = Number(new URL(own.url).port);
    });

    it.each([
      { route: '', face: 'JSON envelope' },
      { route: 'extensions/iac-code/v1/executions/exec-1/cancel', face: 'cancel route' },
    ])(
      'answers a stalled body with 408 REQUEST_TIMEOUT and closes the connection ($face)',
      async ({ route }) => {
        const body = JSON.stringify(runInput({ threadId: 'stalled-body' }));
        const { received } = await converse((socket) => {
          socket.write(
            `POST /${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
              `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`,
          );
        }, stalledPort);
        const [head, payload] = received.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 408 /);
        expect(head.toLowerCase()).toContain('connection: close');
        expect(JSON.parse(payload)).toEqual({
          error: { code: 'REQUEST_TIMEOUT', message: 'The request body was not received in time.' },
        });
      },
    );

    it('answers a stalled body on /invocations with one RUN_ERROR frame', async () => {
      const body = JSON.stringify(runInput({ threadId: 'stalled-invocation' }));
      const { received } = await converse((socket) => {
        socket.write(
          'POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
            `Accept: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`,
        );
      }, stalledPort);
      const [head, ...rest] = received.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      expect(parseSse(rest.join('\r\n\r\n')).events).toEqual([
        expect.objectContaining({ type: 'RUN_ERROR', code: 'REQUEST_TIMEOUT' }),
      ]);
    });
  });

  it('lets a run stream for longer than the request deadline', async () => {
    // The scripted "slow" turn streams deltas 300 ms apart for about 10 s, ten times the request deadline.
    const response = await postRun(gateway.url, runInput({ threadId: 'long-stream', text: 'slow' }));
    expect(response.status).toBe(200);
    expect(response.events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(response.events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').length).toBeGreaterThan(
      10,
    );
  }, 30_000);
});
