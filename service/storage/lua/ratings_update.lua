-- A player's rating on a game's leaderboard (service/ratings/board.py; KEYS as in ratings_prune.lua). ARGV[1] the
-- player, ARGV[2] its rated-game count after this game, ARGV[3] its points ('' while provisional: off the board),
-- ARGV[4] when the game ended (ms), ARGV[5] the window's start (ms), ARGV[6] how many stale players to drop. An
-- update older than the one shown (a lower count, written late by another process) changes nothing: answers 0.
prune(ARGV[5], ARGV[6])
if tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '0') >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
