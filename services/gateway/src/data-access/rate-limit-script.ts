/**
 * One atomic step per request: brute-force block, revocation marker, and the three sliding windows
 * as request-time logs (sorted sets). Nothing else runs between the reads and the writes, so
 * concurrent requests can never overshoot a limit. A refused request is not recorded.
 *
 * The key's minute and hour windows read one log (the hour's; the minute is its last 60 s), and a
 * window's reset is read only for the window the headers describe. Each `redis.call` costs more than
 * the sorted-set work it does (docs/performance.md): a key's request makes 13 calls.
 *
 * KEYS: 1 IP window, 2 IP auth failures, 3 key log (hour), 4 key revocation marker
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

-- Stale failures are dropped when one is written; counting only the fresh ones needs no removal.
local failsSince = '(' .. (now - failWindow)
local fails = redis.call('ZCOUNT', KEYS[2], failsSince, '+inf')
if fails > failLimit then
  local oldest = redis.call('ZRANGEBYSCORE', KEYS[2], failsSince, '+inf', 'WITHSCORES', 'LIMIT', fails - failLimit - 1, 1)
  return {'blocked', failLimit, 0, math.floor(tonumber(oldest[2])) + failWindow, now, 'auth_fail', 0}
end

local revoked = false
if mode == 'key' and redis.call('EXISTS', KEYS[4]) == 1 then
  mode = 'fail'
  revoked = true
end

-- A window: its log, limit, length, metrics name, and whether it is a log of its own (trimmed and
-- written) or the newest part of the window before it (the key's minute inside its hour).
local windows = {{KEYS[1], tonumber(ARGV[3]), 60000, 'ip_minute', true}}
if mode == 'key' then
  windows[2] = {KEYS[3], tonumber(ARGV[5]), 3600000, 'key_hour', true}
  windows[3] = {KEYS[3], tonumber(ARGV[4]), 60000, 'key_minute', false}
end

local full = false
local counts = {}
for i, w in ipairs(windows) do
  if w[5] then
    redis.call('ZREMRANGEBYSCORE', w[1], '-inf', now - w[3])
    counts[i] = redis.call('ZCARD', w[1])
  else
    counts[i] = redis.call('ZCOUNT', w[1], '(' .. (now - w[3]), '+inf')
  end
  if counts[i] >= w[2] then full = true end
end

local blockStarted = 0
if not full then
  for i, w in ipairs(windows) do
    if w[5] then
      redis.call('ZADD', w[1], now, member)
      redis.call('PEXPIRE', w[1], w[3])
    end
    counts[i] = counts[i] + 1
  end
  if mode == 'fail' then
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - failWindow)
    redis.call('ZADD', KEYS[2], now, member)
    redis.call('PEXPIRE', KEYS[2], failWindow)
    if fails + 1 > failLimit then blockStarted = 1 end
  end
end

-- When the window's oldest counted request leaves it; an empty window resets a whole length from now.
local function resetOf(w)
  local first
  if w[5] then
    first = redis.call('ZRANGE', w[1], 0, 0, 'WITHSCORES')
  else
    first = redis.call('ZRANGEBYSCORE', w[1], '(' .. (now - w[3]), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  end
  if first[2] then return math.floor(tonumber(first[2])) + w[3] end
  return now + w[3]
end

-- The headers describe the window nearest exhaustion, the later reset on a tie; a failed
-- authentication's, the IP window.
local best = {w = windows[1], remaining = math.max(0, windows[1][2] - counts[1])}
if mode ~= 'fail' then
  for i = 2, #windows do
    local w = windows[i]
    local remaining = math.max(0, w[2] - counts[i])
    if remaining < best.remaining then
      best = {w = w, remaining = remaining}
    elseif remaining == best.remaining then
      best.reset = best.reset or resetOf(best.w)
      local reset = resetOf(w)
      if reset > best.reset then best = {w = w, remaining = remaining, reset = reset} end
    end
  end
end

local outcome = 'allowed'
if revoked then outcome = 'revoked' elseif full then outcome = 'limited' end
return {outcome, best.w[2], best.remaining, best.reset or resetOf(best.w), now, best.w[4], blockStarted}
`;
