-- One event stream's slot among its client's (limits/streams.py): KEYS[1] the client's slots, a sorted set of
-- stream id -> expiry (ms); ARGV[1] now (ms), ARGV[2] the cap (0: a renewal, never refused), ARGV[3] the stream's
-- id, ARGV[4] its new expiry (ms). Drops the slots of streams whose process stopped renewing them, then takes or
-- renews the slot unless the client already holds the cap. The key expires with its last slot. Answers 1 when
-- the slot is held, 0 when it is refused.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local cap = tonumber(ARGV[2])
if cap > 0 and redis.call('ZCARD', KEYS[1]) >= cap then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[1], tonumber(last[2]) - tonumber(ARGV[1]))  -- by the caller's clock
return 1
