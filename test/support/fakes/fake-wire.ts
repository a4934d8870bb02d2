import { EventEmitter } from 'node:events';

/**
 * The TCP socket under a response or a WebSocket, for the transports' specs: it logs cork/uncork (with
 * `label` before each, so a test can tell it from the response's own) into a shared log, and a test fills
 * its buffer (`writableNeedDrain = true`) and drains it (`drain()`).
 */
export class FakeWire extends EventEmitter {
  writableNeedDrain = false;
  readonly destroyed = false;

  constructor(
    private readonly log: string[],
    private readonly label = '',
  ) {
    super();
  }

  setNoDelay(): void {}

  cork(): void {
    this.log.push(`${this.label}cork`);
  }

  uncork(): void {
    this.log.push(`${this.label}uncork`);
  }

  drain(): void {
    this.writableNeedDrain = false;
    this.emit('drain');
  }
}
