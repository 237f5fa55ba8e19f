-- A player's part of a rated game (service/ratings/store.py). KEYS[1] the player's rating of the game (hash),
-- KEYS[2] their history of it (hash: game id -> entry), both on the player's slot. ARGV[1] the game id, ARGV[2] the
-- player's rated-game count as read (the rating's version: each game rated adds one), ARGV[3] the entry (JSON),
-- ARGV[4] the TTL (s), ARGV[5..] the rating's fields and values after the game. Answers 1 if written, 0 if the
-- history holds the game already, -1 if the rating moved since it was read (nothing changes: read it again).
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
if (redis.call('HGET', KEYS[1], 'games') or '0') ~= ARGV[2] then return -1 end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
