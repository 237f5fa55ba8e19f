-- Shared by the leaderboards' scripts (service/ratings/board.py): drop up to `count` players whose last rated game
-- ended before `cutoff` (ms) from a game's board (KEYS[1], established players by points), its last-rated times
-- (KEYS[2]) and its players' rated-game counts (KEYS[3]).
local function prune(cutoff, count)
    local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. cutoff, 'LIMIT', 0, count)
    for _, player in ipairs(stale) do
        redis.call('ZREM', KEYS[1], player)
        redis.call('ZREM', KEYS[2], player)
        redis.call('HDEL', KEYS[3], player)
    end
end
