-- GCRA (the generic cell rate algorithm), for every script that charges a rate budget. A budget is a token bucket
-- kept as one timestamp: the time (ms) at which the client's bucket is full again; the key expires then, so the
-- counters of idle clients vanish by themselves. gcra(key, now, interval, burst) answers 0 if the request may go
-- (and counts it), else the ms to wait; interval is the time (ms) between requests at the sustained rate.
local function gcra(key, now, interval, burst)
    local full = math.max(tonumber(redis.call('GET', key) or 0), now) + interval
    local wait = full - burst * interval - now
    if wait > 0 then return wait end
    redis.call('SET', key, full, 'PX', full - now)
    return 0
end
