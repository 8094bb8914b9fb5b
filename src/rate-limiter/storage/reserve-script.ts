// The scripts' first lines: the state key, the policy name, then each numeric argument by name, in order.
function scriptArguments(numbers: string[]): string {
  return ['local key = KEYS[1]', 'local policy = ARGV[1]', ...numbers.map((name, i) => `local ${name} = tonumber(ARGV[${i + 2}])`)].join('\n');
}

/**
 * The Redis side of a reservation: the three policies of policies/*.ts in Lua, run by the server as one
 * atomic script, so that any number of processes and hosts share one exact count. The arithmetic mirrors
 * the TypeScript expression by expression (same operations in the same order on the same doubles), and
 * the storage contract suite runs both against the same timelines to keep them equal.
 *
 * KEYS[1] the state hash: fields a, b, c (policy state), x (when it may be forgotten) and p (the policy
 * that wrote it: a limiter whose policy changed starts afresh, as Symfony's limiters start from a new state
 * when the stored one is of another class, instead of reading a bucket's timer as a window's hit count;
 * a state without p, written before p existed, is read as it was).
 * ARGV policy, limit, interval, rateInterval, amount, tokens, now, maxWait.
 * Returns strings (Redis would truncate Lua numbers to integers): reserved, accepted, remaining,
 * retryAfter, timeToAct, resetAt, and for a sliding window its end (windowEnd).
 * A state whose window or timer lies after ARGV now is read, and written back, as the policies do: begun now.
 */
export const RESERVE_SCRIPT = `
${scriptArguments(['limit', 'interval', 'rateInterval', 'amount', 'tokens', 'now', 'maxWait'])}
local floor, ceil, min, max = math.floor, math.ceil, math.min, math.max
if tokens > limit then
  return redis.error_reply('Cannot reserve more tokens (' .. ARGV[6] .. ') than the size of the rate limiter (' .. ARGV[2] .. ').')
end

local stored = redis.call('HMGET', key, 'a', 'b', 'c', 'x', 'p')
local has = stored[4] ~= false and tonumber(stored[4]) >= now and (stored[5] == false or stored[5] == policy)
local sa, sb, sc = 0, 0, 0
if has then sa, sb, sc = tonumber(stored[1]), tonumber(stored[2]), tonumber(stored[3]) end

local function fmt(v) return string.format('%.17g', v) end
local function out(reserved, accepted, remaining, retryAfter, timeToAct, resetAt, windowEnd)
  local reply = { reserved and '1' or '0', accepted and '1' or '0', fmt(max(0, remaining)), fmt(floor(retryAfter)), fmt(timeToAct), fmt(resetAt) }
  if windowEnd then reply[7] = fmt(windowEnd) end
  return reply
end
local function save(a, b, c, expiresAt)
  redis.call('HSET', key, 'a', fmt(a), 'b', fmt(b), 'c', fmt(c), 'x', fmt(expiresAt), 'p', policy)
  -- At most ten years: a bucket of a billion tokens refilled yearly would pass Redis's bound, and the
  -- HSET above would stay without an expiry.
  redis.call('PEXPIRE', key, min(315360000000, max(1, ceil((expiresAt - now) * 1000) + 1)))
end

if policy == 'fixed_window' then
  local timer0, hits0 = sa, sb
  if not has then timer0, hits0 = now, 0 end
  local rebased = timer0 > now
  if rebased then timer0 = now end
  local elapsed = now - timer0
  local timer, carried = timer0, hits0
  if elapsed > interval then timer, carried = now, max(0, hits0 - floor(elapsed / interval) * limit) end
  local available = limit - carried
  local resetAt = timer + interval
  local function keep()
    if rebased then save(timer, carried, 0, timer + interval * max(1, ceil(carried / limit))) end
  end
  if tokens == 0 then
    local wait = 0
    if available < 1 then wait = ceil(timer0 + interval * (ceil((hits0 + 1) / limit) - 1) - now) end
    keep()
    return out(false, true, available, now + wait, now, resetAt)
  end
  local hits = carried + tokens
  local expiresAt = timer + interval * max(1, ceil(hits / limit))
  if available >= tokens then
    save(timer, hits, 0, expiresAt)
    return out(true, true, available - tokens, now, now, resetAt)
  end
  local wait = ceil(timer0 + interval * (ceil((hits0 + tokens) / limit) - 1) - now)
  if wait > maxWait then
    keep()
    return out(false, false, available, now + wait, now + wait, resetAt)
  end
  save(timer, hits, 0, expiresAt)
  return out(true, false, available - tokens, now + wait, now + wait, resetAt)
end

if policy == 'sliding_window' then
  local c, p, e = sa, sb, sc
  if not has then c, p, e = 0, 0, now + interval end
  local rebased = e > now + interval
  if rebased then e, p = now + interval, min(p, max(0, limit - c)) end
  if now > e then
    if now < e + interval then p, c, e = c, 0, e + interval else p, c, e = 0, 0, now + interval end
  end
  local elapsed = now - (e - interval)
  local fraction = min(elapsed / interval, 1)
  local function hitCount(current) return floor(p * (1 - fraction) + current) end
  local function timeFor(wanted)
    local remaining = limit - hitCount(c)
    if remaining >= wanted then return 0 end
    local releasable = max(1, limit - floor(p * (1 - fraction)))
    local needed = wanted - remaining
    if releasable >= needed then return (needed * (interval - elapsed)) / releasable end
    return e - now + ((needed - releasable) * interval) / limit
  end
  local function wholeAt(count)
    if count >= 1 then return e + interval * (1 - 1 / count) end
    if p >= 1 then return max(now, e - interval / p) end
    return now
  end
  local available = limit - hitCount(c)
  if tokens == 0 then
    local at = now
    if available <= 0 then at = now + timeFor(hitCount(c)) end
    if rebased then save(c, p, e, e + interval) end
    return out(false, true, available, at, now, wholeAt(c), e)
  end
  if available >= tokens then
    save(c + tokens, p, e, e + interval)
    return out(true, true, limit - hitCount(c + tokens), now, now, wholeAt(c + tokens), e)
  end
  local wait = timeFor(tokens)
  if wait > maxWait then
    if rebased then save(c, p, e, e + interval) end
    return out(false, false, available, now + wait, now + wait, wholeAt(c), e)
  end
  save(c + tokens, p, e, e + interval)
  return out(true, false, limit - hitCount(c + tokens), now + wait, now + wait, wholeAt(c + tokens), e)
end

if policy == 'token_bucket' then
  local timer0, level = sb, sa
  if not has then timer0, level = now, limit end
  local rebased = timer0 > now
  if rebased then timer0 = now end
  local cycles = floor(max(0, now - timer0) / rateInterval)
  local available = min(limit, level + cycles * amount)
  local timer = timer0 + cycles * rateInterval
  local function timeFor(missing) return ceil(missing / amount) * rateInterval end
  local function resetAt(left)
    if left >= limit then return now end
    return timer + timeFor(limit - left)
  end
  if available >= tokens then
    local left = available - tokens
    local retryAfter = now
    if available == 0 then retryAfter = now + timeFor(1) end
    if tokens > 0 or rebased then save(left, timer, 0, now + timeFor(max(limit, limit - left))) end
    return out(tokens > 0, true, left, retryAfter, now, resetAt(left))
  end
  local wait = timeFor(tokens - available)
  if wait > maxWait then
    if rebased then save(available, timer, 0, now + timeFor(max(limit, limit - available))) end
    return out(false, false, available, now + wait, now + wait, resetAt(available))
  end
  save(available - tokens, timer, 0, now + timeFor(max(limit, limit - (available - tokens))))
  return out(true, false, 0, now + wait, now + wait, resetAt(available - tokens))
end

return redis.error_reply('unknown rate limiter policy ' .. policy)
`;

/**
 * Gives back the tokens of a reservation whose caller stopped waiting for it (a stalled server answered
 * after the deadline: the request was admitted without a decision or refused), if its window is still the
 * current one: the window that ends at the decision's windowEnd (its resetAt for a fixed window; the values
 * are the same doubles RESERVE_SCRIPT computed), any time for a token bucket (tokens return, up to the limit).
 * KEYS[1] the state hash. ARGV policy, limit, interval, tokens, windowEnd. Returns 1 when tokens were given back.
 */
export const REFUND_SCRIPT = `
${scriptArguments(['limit', 'interval', 'tokens', 'windowEnd'])}
local stored = redis.call('HMGET', key, 'a', 'b', 'c', 'p')
if stored[1] == false or (stored[4] ~= false and stored[4] ~= policy) then return 0 end
local sa, sb, sc = tonumber(stored[1]), tonumber(stored[2]), tonumber(stored[3])
local function fmt(v) return string.format('%.17g', v) end
if policy == 'fixed_window' then
  if sa + interval ~= windowEnd then return 0 end
  redis.call('HSET', key, 'b', fmt(math.max(0, sb - tokens)))
  return 1
end
if policy == 'sliding_window' then
  if sc ~= windowEnd then return 0 end
  redis.call('HSET', key, 'a', fmt(math.max(0, sa - tokens)))
  return 1
end
if policy == 'token_bucket' then
  redis.call('HSET', key, 'a', fmt(math.min(limit, sa + tokens)))
  return 1
end
return 0
`;
