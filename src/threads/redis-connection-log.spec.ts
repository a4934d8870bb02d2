import { EventEmitter } from 'node:events';
import type { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { watchRedisConnection } from './redis-connection-log';

function watched(isClosed = () => false) {
  const connection = new EventEmitter();
  const logger = { log: jest.fn(), warn: jest.fn() };
  const clock = new FakeClock();
  const onReady = jest.fn();
  watchRedisConnection(connection as unknown as Redis, {
    name: 'commands',
    logger: logger as unknown as Logger,
    logText: (error) => String(error),
    onReady,
    isClosed,
    clock,
  });
  return { connection, logger, clock, onReady };
}

describe('watchRedisConnection (docs/behaviour/state.md#redis-connection-life)', () => {
  it('logs a loss once and the return once, with the time away on the Clock and the tries it took', () => {
    const { connection, logger, clock, onReady } = watched();
    connection.emit('ready');
    connection.emit('close');
    for (let attempt = 0; attempt < 3; attempt++) {
      connection.emit('reconnecting');
      connection.emit('error', new Error('ECONNREFUSED'));
    }
    clock.advance(4_000);
    connection.emit('ready');

    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ msg: 'Redis connection lost; reconnecting', connection: 'commands' }),
    );
    expect(logger.log).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledWith(
      expect.objectContaining({ msg: 'Redis connection back', awayMs: 4_000, attempts: 3 }),
    );
    expect(onReady).toHaveBeenCalledTimes(2);
  });

  it('at start, logs the first failure only and then how long it waited on the Clock', () => {
    const { connection, logger, clock } = watched();
    connection.emit('error', new Error('ECONNREFUSED'));
    connection.emit('reconnecting');
    connection.emit('error', new Error('ECONNREFUSED'));
    clock.advance(1_500);
    connection.emit('ready');

    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ msg: 'Redis not reachable yet; retrying' }),
    );
    expect(logger.log).toHaveBeenCalledWith(
      expect.objectContaining({ msg: 'Redis connected', waitedMs: 1_500, attempts: 1 }),
    );
  });

  it('says nothing of a close once the store has shut down', () => {
    let isClosed = false;
    const { connection, logger } = watched(() => isClosed);
    connection.emit('ready');
    isClosed = true;
    connection.emit('close');
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
