-- GCRA (the generic cell rate algorithm), for every script that charges a rate budget. A budget is a token bucket
-- kept as one timestamp: the time (ms) at which the client's bucket is full again; the key expires then, so the
-- counters of idle clients vanish by themselves. gcra(key, now, interval, burst) answers 0 if the request may go
-- (and counts it), else the ms to wait; interval is the time (ms) between requests at the sustained rate. With
-- ``field``, the timestamp is that field of the hash ``key`` (one budget per field), which expires with the last.
local function gcra(key, now, interval, burst, field)
    local stored
    if field then stored = redis.call('HGET', key, field) else stored = redis.call('GET', key) end
    local full = math.max(tonumber(stored or 0) or 0, now) + interval
    local wait = full - burst * interval - now
    if wait > 0 then return wait end
    if not field then
        redis.call('SET', key, full, 'PX', full - now)
    else
        redis.call('HSET', key, field, full)
        if redis.call('PTTL', key) < full - now then redis.call('PEXPIRE', key, full - now) end
    end
    return 0
end
