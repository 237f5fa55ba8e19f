-- Stop waiting (service/pairing/pool.py). With `freed` 1 the caller freed the seat in the game first, which had not
-- started: the seat is free again in its lobby, a lobby left empty is forgotten, and a lobby that was full is open
-- again. With `freed` 0 the game went on without the seat (started, or gone): the player is forgotten and the
-- lobby takes nobody more. ARGV: player, the game id, now ms, lobby life ms, grace ms, freed (1 or 0).
-- Answers 1 if the player waited there (and no longer does), else 0.
local player, game_id, now, life, grace = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
forget_due(now)
local held = redis.call('HGET', seekers, player)
if not held or cjson.decode(held).g ~= game_id then return 0 end
local seat = cjson.decode(held).s + 1
redis.call('HDEL', seekers, player)
redis.call('ZREM', due, 's:' .. player)
local stored = redis.call('HGET', lobbies, game_id)
if not stored then return 1 end
local lobby = cjson.decode(stored)
if ARGV[6] == '0' then
    redis.call('ZREM', open, lobby.m)
    return 1
end
local was_full = full(lobby)
lobby.seats[seat], lobby.ratings[seat] = '', 0
local empty = true
for _, holder in ipairs(lobby.seats) do
    if holder ~= '' then empty = false end
end
if empty then
    redis.call('HDEL', lobbies, game_id)
    redis.call('ZREM', open, lobby.m)
    redis.call('ZREM', due, 'l:' .. game_id)
    return 1
end
redis.call('HSET', lobbies, game_id, cjson.encode(lobby))
local bots_come = lobby.bots_at > 0 and now >= lobby.bots_at
if was_full and not bots_come then
    redis.call('ZADD', open, 0, lobby.m)
    settle(lobby, 0, lobby.created + life)
end
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, life + grace) end
return 1
