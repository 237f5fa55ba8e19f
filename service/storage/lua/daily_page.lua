-- A page of a daily deal's results, best first (service/daily/board.py). KEYS[1] the results, KEYS[2] the entries;
-- ARGV[1] the offset, ARGV[2] the page's size. Answers {count, rank, entry, rank, entry, ...}: a result's rank is
-- 1 + the results with a lower score (equal results share it). One round trip whatever the page.
local count = redis.call('ZCARD', KEYS[1])
local page = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[1] + ARGV[2] - 1, 'WITHSCORES')
local answer = {count}
local rank, last = 0, nil
for index = 1, #page, 2 do
    local score = page[index + 1]
    if score ~= last then rank = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. score) + 1 end
    last = score
    local digest = string.sub(page[index], 15)  -- the member is <finished ms, 13 digits>:<digest>
    answer[#answer + 1] = rank
    answer[#answer + 1] = redis.call('HGET', KEYS[2], digest) or '{}'
end
return answer
