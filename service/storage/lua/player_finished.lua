-- A game a player played is over (players/index.py): its entry moves from the live ones to the finished ones, and
-- the game counts once in the player's profile. KEYS[1] the player's games (a sorted set), KEYS[2] the profile;
-- ARGV[1] the live entry, ARGV[2] the finished entry, ARGV[3] the profile's field (played:<game>).
-- Answers 1 if it moved, 0 if it was not there (moved already, or the player is gone).
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], 0, ARGV[2])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HINCRBY', KEYS[2], ARGV[3], 1) end
return 1
