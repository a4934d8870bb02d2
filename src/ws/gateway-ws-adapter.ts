import { Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { WebSocket, type WebSocketServer } from 'ws';
import { WsCloseCode } from './ws-run-channel';

/**
 * How long the sockets still open at shutdown get to answer the 1001 close before they are cut. Their runs
 * have already ended (the drain runs before the adapter closes), so this only bounds a client that does not
 * answer the closing handshake.
 */
const CLOSE_HANDSHAKE_MS = 2000;

/** The errors a client causes on its own socket: ws names them WS_ERR_* and closes with 1002/1007/1009. */
function isClientFault(error: Error & { code?: string }): boolean {
  return typeof error.code === 'string' && error.code.startsWith('WS_ERR_');
}

/** A client that just went away: nothing to report beyond debug. */
function isClientGone(error: Error & { code?: string }): boolean {
  return error.code === 'ECONNRESET' || error.code === 'EPIPE';
}

/**
 * `@nestjs/platform-ws`'s adapter with two changes (docs/deployment.md "Amazon Bedrock AgentCore", WebSocket): a client's malformed
 * frame (invalid UTF-8, a message over the cap, a bad opcode) is one warn line with ws's code, not an error
 * with a stack; and shutdown closes every open socket with 1001 "going away" after the drain, instead of
 * terminating it (which clients see as an abnormal 1006).
 */
export class GatewayWsAdapter extends WsAdapter {
  private readonly socketLogger = new Logger('AgentCoreWsGateway');

  override bindErrorHandler(server: WebSocketServer): WebSocketServer {
    server.on('connection', (socket: WebSocket) =>
      socket.on('error', (error: Error & { code?: string }) => {
        if (isClientFault(error))
          this.socketLogger.warn({ msg: 'WebSocket client sent an invalid frame', code: error.code });
        else if (isClientGone(error))
          this.socketLogger.debug({ msg: 'WebSocket client went away', code: error.code });
        else this.socketLogger.error({ msg: 'WebSocket error', error: error.message });
      }),
    );
    server.on('error', (error: Error) =>
      this.socketLogger.error({ msg: 'WebSocket server error', error: error.message }),
    );
    return server;
  }

  override async close(server: WebSocketServer): Promise<void> {
    const closed = new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
    await Promise.all([...server.clients].map((socket) => goAway(socket)));
    await closed;
  }
}

/** Close with 1001 and wait for the client's answer, cutting the socket if it does not come in time. */
function goAway(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS);
    socket.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
    if (socket.readyState === WebSocket.OPEN) socket.close(WsCloseCode.GOING_AWAY);
  });
}
