/**
 * Lua scripts of the Redis limiter. Each runs atomically in Redis, so the check and the count of
 * one admission cannot interleave with another process's. Times come from Redis (`TIME`), never
 * from the callers, so processes on machines with skewed clocks agree.
 *
 * Sorted sets, scored by time: KEYS[1] concurrency leases (score = lease expiry), KEYS[2]
 * admissions of the last minute, KEYS[3..] admissions per usage window.
 */
const NOW = `local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * ARGV: member, concurrent, leaseMs, perMinute, then per window: requests, spanMs, floorCount,
 * floorOldest (-1 = none). The floor is the window as the durable store counts it, so a restarted
 * (emptied) Redis still refuses a key whose window is spent.
 * Returns {0} admitted, {1308, window index (1-based), resetsAt, now}, {1303, retryMs}, {1302}.
 */
export const ADMIT = `${NOW}
local member = ARGV[1]
local concurrent = tonumber(ARGV[2])
local leaseMs = tonumber(ARGV[3])
local perMinute = tonumber(ARGV[4])
local windows = (#ARGV - 4) / 4
for i = 1, windows do
  local key = KEYS[2 + i]
  local requests = tonumber(ARGV[4 * i + 1])
  local span = tonumber(ARGV[4 * i + 2])
  local floor = tonumber(ARGV[4 * i + 3])
  local floorOldest = tonumber(ARGV[4 * i + 4])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. (now - span))
  local count = math.max(redis.call('ZCARD', key), floor)
  if count >= requests then
    local oldest = now
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    if first[2] then oldest = tonumber(first[2]) end
    if floor > 0 and floorOldest >= 0 and floorOldest < oldest then oldest = floorOldest end
    return {1308, i, oldest + span, now}
  end
end
if perMinute > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
  if redis.call('ZCARD', KEYS[2]) >= perMinute then
    local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return {1303, tonumber(first[2]) + 60000 - now}
  end
end
if concurrent > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  if redis.call('ZCARD', KEYS[1]) >= concurrent then return {1302} end
  redis.call('ZADD', KEYS[1], now + leaseMs, member)
  redis.call('PEXPIRE', KEYS[1], leaseMs)
end
if perMinute > 0 then
  redis.call('ZADD', KEYS[2], now, member)
  redis.call('PEXPIRE', KEYS[2], 60000)
end
for i = 1, windows do
  local span = tonumber(ARGV[4 * i + 2])
  redis.call('ZADD', KEYS[2 + i], now, member)
  redis.call('PEXPIRE', KEYS[2 + i], span)
end
return {0}
`;

/**
 * Renews leases that still exist (XX: a lease that already expired and was swept stays gone, so
 * a process that stalled past its lease cannot push a key over its limit). KEYS[1] the leases,
 * ARGV[1] leaseMs, ARGV[2..] members. Returns how many were renewed.
 */
export const RENEW = `${NOW}
local leaseMs = tonumber(ARGV[1])
local renewed = 0
for i = 2, #ARGV do
  renewed = renewed + redis.call('ZADD', KEYS[1], 'XX', 'CH', now + leaseMs, ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], leaseMs)
return renewed
`;
