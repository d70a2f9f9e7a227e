/**
 * Count and decide in one step, so parallel guesses cannot all read "below the limit" before any
 * of them writes: an attempt is charged *before* its password is checked, and only if neither the
 * address nor the user is over its limit. A refused attempt is not charged (waiting does not extend
 * the wait). A success gives its charge back (see RELEASE_SCRIPT).
 *
 * KEYS: 1 address failures, 2 user failures. ARGV: 1 address limit, 2 user limit, 3 window (s).
 * Returns 0 when the attempt may go ahead, else the seconds to wait (at least 1).
 */
export const RESERVE_SCRIPT = `
local address = tonumber(redis.call('GET', KEYS[1]) or '0')
local user = tonumber(redis.call('GET', KEYS[2]) or '0')
local wait = 0
if address >= tonumber(ARGV[1]) then wait = math.max(wait, redis.call('TTL', KEYS[1])) end
if user >= tonumber(ARGV[2]) then wait = math.max(wait, redis.call('TTL', KEYS[2])) end
if address >= tonumber(ARGV[1]) or user >= tonumber(ARGV[2]) then return math.max(wait, 1) end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3], 'NX')
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[3], 'NX')
return 0
`;

/** A successful sign-in was not a failure: give back the charge RESERVE_SCRIPT took. KEYS as above. */
export const RELEASE_SCRIPT = `
for i = 1, 2 do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 0
`;
