-- One player's rank on a game's leaderboard (service/ratings/board.py; KEYS as in ratings_prune.lua). ARGV[1] the
-- player, ARGV[2] the window's start (ms), ARGV[3] how many stale players to drop first. Answers {count} when the
-- player is not on the board (provisional, or no rated game in the window), else {count, rank, points}: the rank
-- is 1 + the players with more points.
prune(ARGV[2], ARGV[3])
local count = redis.call('ZCARD', KEYS[1])
local points = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not points or tonumber(redis.call('ZSCORE', KEYS[2], ARGV[1]) or '0') < tonumber(ARGV[2]) then return {count} end
return {count, redis.call('ZCOUNT', KEYS[1], '(' .. points, '+inf') + 1, points}
