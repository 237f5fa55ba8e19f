-- The cap on live games (limits): KEYS[1] the live games; ARGV[1] now (ms), ARGV[2] the cap. Prunes up to 100
-- expired entries (more than a creation adds, so the set stays near the live count). Answers 0 if fewer than the
-- cap are live, else the ms until the first live one expires.
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
if #expired > 0 then redis.call('ZREM', KEYS[1], unpack(expired)) end
local live = '(' .. ARGV[1]
if redis.call('ZCOUNT', KEYS[1], live, '+inf') < tonumber(ARGV[2]) then return 0 end
local first = redis.call('ZRANGEBYSCORE', KEYS[1], live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
return tonumber(first[2]) - tonumber(ARGV[1])
