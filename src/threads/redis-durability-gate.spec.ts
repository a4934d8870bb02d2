import { Logger } from '@nestjs/common';
import { ConfigError } from '../config/load-config';
import type { RedisDurabilitySettings } from './redis-durability';
import { RedisDurabilityGate } from './redis-durability-gate';
import { ThreadStoreNotReadyError } from './thread-store';

const DURABLE: RedisDurabilitySettings = { appendonly: 'yes', maxmemoryPolicy: 'noeviction' };
const NO_AOF: RedisDurabilitySettings = { appendonly: 'no', maxmemoryPolicy: 'noeviction' };

/** A Redis whose answer to CONFIG GET a test sets; `undefined` plays a Redis that does not answer. */
function setup(allowVolatile = false) {
  const redis: { settings?: RedisDurabilitySettings; asked: number } = { asked: 0 };
  const logger = new Logger('test');
  const lines: string[] = [];
  for (const level of ['log', 'warn', 'error'] as const)
    jest
      .spyOn(logger, level)
      .mockImplementation(
        (...args: unknown[]) => void lines.push(`${level} ${(args[0] as { msg: string }).msg}`),
      );
  const read = async () => {
    redis.asked += 1;
    if (!redis.settings) throw new Error('connect ECONNREFUSED');
    return redis.settings;
  };
  const gate = new RedisDurabilityGate(read, allowVolatile, logger);
  return { gate, redis, lines };
}

/** docs/behaviour/state.md#redis-connection-life */
describe('RedisDurabilityGate', () => {
  it('refuses the start on a volatile Redis at boot, naming the setting and the override', async () => {
    const { gate, redis } = setup();
    redis.settings = NO_AOF;
    const boot = gate.checkAtBoot(String);
    await expect(boot).rejects.toBeInstanceOf(ConfigError);
    await expect(boot).rejects.toThrow(/appendonly is "no".*IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE=true/);
  });

  it('starts when Redis does not answer at boot, admits nothing until a check passed, then admits', async () => {
    const { gate, redis, lines } = setup();
    await gate.checkAtBoot(String);
    expect(lines).toEqual([expect.stringMatching(/^warn Redis durability not checked yet/)]);
    await expect(gate.admit()).rejects.toEqual(
      new ThreadStoreNotReadyError('Redis durability not checked yet (Redis does not answer)'),
    );
    redis.settings = DURABLE;
    await gate.admit();
    const asked = redis.asked;
    // Passed once: admitting costs no round trip any more.
    await gate.admit();
    expect(redis.asked).toBe(asked);
  });

  it('refuses a volatile Redis met after boot (a reconnect): not admitted, with its reason, logged once', async () => {
    const { gate, redis, lines } = setup();
    redis.settings = DURABLE;
    await gate.checkAtBoot(String);
    redis.settings = NO_AOF;
    await gate.check();
    await gate.check();
    await expect(gate.admit()).rejects.toMatchObject({
      reason: 'Redis is not durable (appendonly is "no", not "yes")',
    });
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([
      'error Redis is not durable: this replica admits no run and is not ready until it is (or IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE=true)',
    ]);
    // A check that gets no answer (Redis away again) keeps the verdict; a durable one lifts it.
    redis.settings = undefined;
    await expect(gate.check()).rejects.toThrow('ECONNREFUSED');
    await expect(gate.admit()).rejects.toBeInstanceOf(ThreadStoreNotReadyError);
    redis.settings = DURABLE;
    await gate.check();
    await expect(gate.admit()).resolves.toBeUndefined();
  });

  it('flags a volatile Redis met after boot with the override, and admits', async () => {
    const { gate, redis, lines } = setup(true);
    await gate.checkAtBoot(String);
    redis.settings = NO_AOF;
    await gate.check();
    await gate.check();
    await expect(gate.admit()).resolves.toBeUndefined();
    expect(lines.filter((line) => line.includes('is not durable'))).toHaveLength(1);
  });

  it('shares one check in flight', async () => {
    const { gate, redis } = setup();
    redis.settings = DURABLE;
    await Promise.all([gate.check(), gate.check(), gate.admit()]);
    expect(redis.asked).toBe(1);
  });
});
