-- A game's leaderboard, best first (service/ratings/board.py; KEYS as in ratings_prune.lua). ARGV[1] the window's
-- start (ms), ARGV[2] the page's size, ARGV[3] how many stale players to drop first. Answers {count, player,
-- points, games, ...}: players whose last rated game is older than the window are skipped (and dropped) even when
-- more were stale than one call drops.
prune(ARGV[1], ARGV[3])
local answer = {redis.call('ZCARD', KEYS[1])}
local wanted, start = tonumber(ARGV[2]), 0
while (#answer - 1) / 3 < wanted do
    local page = redis.call('ZREVRANGE', KEYS[1], start, start + wanted - 1, 'WITHSCORES')
    if #page == 0 then break end
    for index = 1, #page, 2 do
        local last = tonumber(redis.call('ZSCORE', KEYS[2], page[index]) or '0')
        if last >= tonumber(ARGV[1]) and (#answer - 1) / 3 < wanted then
            answer[#answer + 1] = page[index]
            answer[#answer + 1] = page[index + 1]
            answer[#answer + 1] = redis.call('HGET', KEYS[3], page[index]) or '0'
        end
    end
    start = start + wanted
end
return answer
