-- One token's rank on a daily deal (service/daily/board.py). KEYS[1] the results, KEYS[2] the entries; ARGV[1] the
-- token's digest. Answers {count, rank (results with a lower score + 1), entry, worse (results with a higher
-- score)}, or {count} without a result.
local count = redis.call('ZCARD', KEYS[1])
local entry = redis.call('HGET', KEYS[2], ARGV[1])
if not entry then return {count} end
local score = redis.call('ZSCORE', KEYS[1], string.match(entry, '"member":"([^"]*)"'))
if not score then return {count} end
local worse = redis.call('ZCOUNT', KEYS[1], '(' .. score, '+inf')
return {count, redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. score) + 1, entry, worse}
