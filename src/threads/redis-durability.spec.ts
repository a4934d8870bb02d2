import { judgeRedisDurability } from './redis-durability';

/** docs/behaviour/state.md#redis-durability */
describe('judgeRedisDurability', () => {
  it('accepts AOF with noeviction', () => {
    expect(judgeRedisDurability({ appendonly: 'yes', maxmemoryPolicy: 'noeviction' })).toEqual({
      kind: 'durable',
    });
  });

  it('names every setting that would lose an announced interrupt', () => {
    expect(judgeRedisDurability({ appendonly: 'no', maxmemoryPolicy: 'allkeys-lru' })).toEqual({
      kind: 'volatile',
      problems: ['appendonly is "no", not "yes"', 'maxmemory-policy is "allkeys-lru", not "noeviction"'],
    });
    // volatile-* evicts keys with a TTL: the run leases and locks.
    expect(judgeRedisDurability({ appendonly: 'yes', maxmemoryPolicy: 'volatile-ttl' })).toMatchObject({
      kind: 'volatile',
    });
  });

  it('cannot tell when the server refuses CONFIG', () => {
    expect(judgeRedisDurability({})).toEqual({ kind: 'unverifiable' });
  });
});
