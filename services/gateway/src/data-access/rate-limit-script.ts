/**
 * One atomic step per request: brute-force block, revocation marker, and the three sliding-window
 * logs (sorted sets of request times). Nothing else runs between the reads and the writes, so
 * concurrent requests can never overshoot a limit. A refused request is not recorded.
 *
 * KEYS: 1 IP window, 2 IP auth failures, 3 key minute window, 4 key hour window, 5 key revocation marker
 * ARGV: 1 unique member, 2 mode (key|fail|anon), 3 IP limit, 4 key/min limit, 5 key/hour limit,
 *       6 auth failure limit, 7 auth failure window (ms)
 * Returns { outcome, limit, remaining, reset (ms), now (ms), window name, block started (1|0) } for the
 * window the headers describe; the last two feed the metrics (which window limited, when an IP got blocked).
 */
export const RATE_LIMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local member, mode = ARGV[1], ARGV[2]
local failLimit, failWindow = tonumber(ARGV[6]), tonumber(ARGV[7])

redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - failWindow)
local fails = redis.call('ZCARD', KEYS[2])
if fails > failLimit then
  local idx = fails - failLimit - 1
  local oldest = redis.call('ZRANGE', KEYS[2], idx, idx, 'WITHSCORES')
  return {'blocked', failLimit, 0, math.floor(tonumber(oldest[2])) + failWindow, now, 'auth_fail', 0}
end

local revoked = false
if mode == 'key' and redis.call('EXISTS', KEYS[5]) == 1 then
  mode = 'fail'
  revoked = true
end

local windows = {{KEYS[1], tonumber(ARGV[3]), 60000, 'ip_minute'}}
if mode == 'key' then
  windows[2] = {KEYS[3], tonumber(ARGV[4]), 60000, 'key_minute'}
  windows[3] = {KEYS[4], tonumber(ARGV[5]), 3600000, 'key_hour'}
end

local full = false
local blockStarted = 0
local counts = {}
for i, w in ipairs(windows) do
  redis.call('ZREMRANGEBYSCORE', w[1], '-inf', now - w[3])
  counts[i] = redis.call('ZCARD', w[1])
  if counts[i] >= w[2] then full = true end
end

if not full then
  for i, w in ipairs(windows) do
    redis.call('ZADD', w[1], now, member)
    redis.call('PEXPIRE', w[1], w[3])
    counts[i] = counts[i] + 1
  end
  if mode == 'fail' then
    redis.call('ZADD', KEYS[2], now, member)
    redis.call('PEXPIRE', KEYS[2], failWindow)
    if fails + 1 > failLimit then blockStarted = 1 end
  end
end

local best = nil
for i, w in ipairs(windows) do
  local remaining = math.max(0, w[2] - counts[i])
  local first = redis.call('ZRANGE', w[1], 0, 0, 'WITHSCORES')
  local reset = now + w[3]
  if first[2] then reset = math.floor(tonumber(first[2])) + w[3] end
  if best == nil or (mode ~= 'fail' and (remaining < best[2] or (remaining == best[2] and reset > best[3]))) then
    best = {w[2], remaining, reset, w[4]}
  end
end

local outcome = 'allowed'
if revoked then outcome = 'revoked' elseif full then outcome = 'limited' end
return {outcome, best[1], best[2], best[3], now, best[4], blockStarted}
`;
