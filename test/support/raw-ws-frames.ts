import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** One WebSocket frame as it crossed the wire (RFC 6455 §5.2). */
export interface RawFrame {
  readonly fin: boolean;
  /** 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong. */
  readonly opcode: number;
  readonly payload: Buffer;
}

/**
 * A WebSocket client that exposes frames instead of messages, to check how the server fragments a large
 * event: `ws` and browsers reassemble fragments before anyone can see them.
 */
export class RawWsConnection {
  readonly frames: RawFrame[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private listeners: (() => void)[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
  }

  static async open(
    gatewayUrl: string,
    path = '/ws',
    headers: Record<string, string> = {},
  ): Promise<RawWsConnection> {
    const { hostname, port } = new URL(gatewayUrl);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(
      [
        `GET ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        '',
        '',
      ].join('\r\n'),
    );
    const head = await new Promise<Buffer>((resolve) => {
      let received = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onData);
        socket.pause();
        resolve(received);
      };
      socket.on('data', onData);
    });
    const end = head.indexOf('\r\n\r\n') + 4;
    if (!head.subarray(0, end).toString().startsWith('HTTP/1.1 101'))
      throw new Error(`handshake refused: ${head.toString()}`);
    const connection = new RawWsConnection(socket);
    connection.buffer = head.subarray(end);
    connection.parse();
    socket.resume();
    return connection;
  }

  /** Sends one masked text frame (clients must mask, docs/behaviour/interrupts.md#resume-admission). */
  sendText(text: string): void {
    const payload = Buffer.from(text, 'utf8');
    const mask = randomBytes(4);
    const length =
      payload.length < 126
        ? Buffer.from([0x80 | payload.length])
        : payload.length < 65536
          ? Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff])
          : Buffer.concat([Buffer.from([0x80 | 127]), bigEndian64(payload.length)]);
    const masked = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]));
    this.socket.write(Buffer.concat([Buffer.from([0x81]), length, mask, masked]));
  }

  /** Waits until a frame matches. */
  async waitFor(predicate: (frames: RawFrame[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.frames)) {
      if (Date.now() > deadline) throw new Error(`frames never matched; got ${this.frames.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.listeners.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(): void {
    for (;;) {
      if (this.buffer.length < 2) return;
      const fin = (this.buffer[0] & 0x80) !== 0;
      const opcode = this.buffer[0] & 0x0f;
      let length = this.buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      this.frames.push({ fin, opcode, payload: this.buffer.subarray(offset, offset + length) });
      this.buffer = this.buffer.subarray(offset + length);
      for (const wake of this.listeners.splice(0)) wake();
    }
  }
}

function bigEndian64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}

/** Reassembles the text messages of a frame list (data frames only; control frames may interleave). */
export function textMessagesOf(frames: readonly RawFrame[]): { text: string; fragments: RawFrame[] }[] {
  const messages: { text: string; fragments: RawFrame[] }[] = [];
  let current: RawFrame[] = [];
  for (const frame of frames) {
    if (frame.opcode >= 8) continue;
    current.push(frame);
    if (frame.fin) {
      messages.push({
        text: Buffer.concat(current.map((f) => f.payload)).toString('utf8'),
        fragments: current,
      });
      current = [];
    }
  }
  return messages;
}
