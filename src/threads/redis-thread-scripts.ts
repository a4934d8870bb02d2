/**
 * Lua run atomically by Redis: each check and the write it guards happen in one step, so two replicas can
 * never both pass a check (compare-and-set, lease claim, fencing) and then both write.
 */

/**
 * KEYS: document hash, lease. ARGV: expected version, document text, mode (`plain` | `claim` | `fence`),
 * run id (claim) or lease token (fence), lease TTL in ms.
 * Returns `{outcome, version, leaseToken}`; outcome is written | conflict | busy | fenced. A fenced write is
 * told before a version conflict: without the lease it could not land whatever the version (and a lease gone
 * with the document is a lost state, docs/behaviour/state.md#the-run-lease).
 */
export const WRITE_THREAD_SCRIPT = `
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if ARGV[3] == 'fence' and redis.call('GET', KEYS[2]) ~= ARGV[4] then return {'fenced', current, ''} end
if current ~= tonumber(ARGV[1]) then return {'conflict', current, ''} end
local token = ''
if ARGV[3] == 'claim' then
  if redis.call('EXISTS', KEYS[2]) == 1 then return {'busy', current, ''} end
  token = redis.call('HINCRBY', KEYS[1], 'fence', 1) .. ':' .. ARGV[4]
  redis.call('SET', KEYS[2], token, 'PX', ARGV[5])
end
redis.call('HSET', KEYS[1], 'document', ARGV[2], 'version', current + 1)
return {'written', current + 1, token}
`;

/** KEYS: a lease or lock key. ARGV: token, TTL in ms. 1 if the token still held it and its TTL was reset. */
export const RENEW_IF_HELD_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/** KEYS: a lease or lock key. ARGV: token. Deletes it only if the token still holds it (never another's). */
export const RELEASE_IF_HELD_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
