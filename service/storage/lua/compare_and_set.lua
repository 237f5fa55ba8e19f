-- The compare-and-set of a game (store.py): KEYS[1] the game; ARGV[1] the revision read ("" for a game that must
-- not exist yet), ARGV[2] the TTL in seconds, ARGV[3] the most bytes the game may take (0: no bound), then field,
-- value, ... (none: delete the game), a write's first field being `w`, its token. Answers 1 if done, 0 if the
-- revision moved, -1 if the game would be too large; and 1 again when this very write is sent twice (the revision
-- moved because of it, and `w` holds its token): a client library that sends a script again after a reply lost to
-- a failover does not make the change look refused, to be computed and applied once more.
-- The one-field-per-key idempotency records of earlier versions (`i:...`, no longer read) are dropped by the first
-- write, and do not count: a game they bloated can be played on. Every write publishes KEYS[1] on 'tg:changes'
-- (store.CHANGES): a change is announced if and only if it is stored.
local rev = redis.call('HGET', KEYS[1], 'rev') or ''
if rev ~= ARGV[1] then
    if ARGV[4] == 'w' and redis.call('HGET', KEYS[1], 'w') == ARGV[5] then return 1 end
    return 0
end
if #ARGV == 3 then
    redis.call('DEL', KEYS[1])
    redis.call('PUBLISH', 'tg:changes', KEYS[1])
    return 1
end
local size, written, legacy = 0, {rev = true}, {}
for i = 4, #ARGV, 2 do
    written[ARGV[i]] = true
    size = size + #ARGV[i] + #ARGV[i + 1]
end
for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(name, 1, 2) == 'i:' then
        legacy[#legacy + 1] = name
    elseif not written[name] then
        size = size + #name + redis.call('HSTRLEN', KEYS[1], name)
    end
end
local limit = tonumber(ARGV[3])
if limit > 0 and size > limit then return -1 end
for i = 1, #legacy, 1000 do
    redis.call('HDEL', KEYS[1], unpack(legacy, i, math.min(i + 999, #legacy)))
end
redis.call('HSET', KEYS[1], 'rev', (tonumber(rev) or 0) + 1, unpack(ARGV, 4))
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('PUBLISH', 'tg:changes', KEYS[1])
return 1
