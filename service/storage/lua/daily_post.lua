-- A daily deal's result (service/daily/board.py). KEYS[1] the deal's results (sorted set: member -> score),
-- KEYS[2] its entries (hash: token digest -> entry JSON), both on the deal's slot. ARGV[1] the token's digest,
-- ARGV[2] the member, ARGV[3] the score, ARGV[4] the entry, ARGV[5] the TTL (s). One result per token and deal:
-- answers 1 if written, 0 if the token already has one (nothing changes then).
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[4]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1
