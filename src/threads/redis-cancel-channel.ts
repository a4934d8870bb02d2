import { randomUUID } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Clock } from '../common/clock';
import { watchRedisConnection } from './redis-connection-log';

interface CancelMessage {
  readonly threadId: string;
  readonly executionId: string;
  readonly origin: string;
}

type CancelListener = (threadId: string, executionId: string) => void;

/**
 * The cancel broadcast of docs/behaviour/cancel.md#cancel-route on Redis pub/sub, rather than the lease holder
 * polling: the run on another replica ends at once. The subscription is made on its own connection at every
 * (re)connect (a replica may start before Redis, and Redis may restart); a message sent while this replica is
 * away costs only the original's behaviour (the run ends when A2A reports the task cancelled).
 */
export class RedisCancelChannel {
  private subscriber?: Redis;
  private readonly listeners: CancelListener[] = [];
  /** Tells this replica's own broadcasts apart: the registry has already ended its local run. */
  private readonly origin = randomUUID();
  /** The SUBSCRIBE in flight, if any: shutdown waits for it (its command timer would outlive the connection). */
  private subscribing: Promise<void> = Promise.resolve();
  private readonly subscribed: Promise<void>;
  private confirm!: () => void;

  constructor(
    private readonly client: Redis,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly logText: (error: unknown) => string,
    private readonly isClosed: () => boolean,
    private readonly clock: Clock,
  ) {
    this.subscribed = new Promise<void>((resolve) => (this.confirm = resolve));
  }

  publish(threadId: string, executionId: string): Promise<number> {
    const message: CancelMessage = { threadId, executionId, origin: this.origin };
    return this.client.publish(this.channel, JSON.stringify(message));
  }

  listen(listener: CancelListener): void {
    this.listeners.push(listener);
    if (this.subscriber) return;
    // Subscribed here at every `ready`, not by ioredis's own resubscribe: that one replays only a
    // subscription that once succeeded, and one attempted while Redis was down never did.
    const subscriber = this.client.duplicate({ autoResubscribe: false });
    this.subscriber = subscriber;
    watchRedisConnection(subscriber, {
      name: 'cancel channel',
      logger: this.logger,
      logText: this.logText,
      isClosed: this.isClosed,
      clock: this.clock,
      onReady: () => this.subscribe(subscriber),
    });
    subscriber.on('message', (from: string, text: string) => {
      if (from !== this.channel) return;
      const message = parseCancelMessage(text);
      if (!message || message.origin === this.origin) return;
      for (const notify of this.listeners) notify(message.threadId, message.executionId);
    });
  }

  /**
   * Resolves once a subscription is confirmed for the first time (before that, another replica's cancel is
   * missed); at once while nobody listens.
   */
  whenSubscribed(): Promise<void> {
    return this.subscriber ? this.subscribed : Promise.resolve();
  }

  async close(): Promise<void> {
    await this.subscribing;
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  disconnect(): void {
    this.subscriber?.disconnect();
  }

  private subscribe(subscriber: Redis): void {
    this.subscribing = subscriber.subscribe(this.channel).then(
      () => this.confirm(),
      // The connection dropped again before the reply: the next `ready` subscribes again.
      (error: unknown) =>
        this.logger.warn({ msg: 'subscribing to the cancel channel failed', error: this.logText(error) }),
    );
  }
}

function parseCancelMessage(text: string): CancelMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<CancelMessage>;
    return typeof value.threadId === 'string' &&
      typeof value.executionId === 'string' &&
      typeof value.origin === 'string'
      ? (value as CancelMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
