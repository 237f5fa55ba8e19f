-- What the pairing scripts share (pairing_seek.lua, pairing_leave.lua: named first, before them). Every key has the
-- hash tag {pairing}, so one Redis Cluster slot holds them and one script sees every seeker at once:
-- KEYS[1] seekers, a hash: player -> {g: game id, s: seat, pool, ends: ms when done waiting (0: waiting)};
-- KEYS[2] lobbies, a hash: game id -> {pool, m: its member of open, seats: player or "" each, ratings, created,
-- bots_at (ms; 0: none)}; KEYS[3] open, a lex zset of "<pool>|<created ms, 13 digits>|<game id>", oldest first
-- per pool; KEYS[4] due, a zset of "s:<player>" and "l:<game id>" by when to forget them.
local seekers, lobbies, open, due = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

-- Forget up to 100 seekers and lobbies whose time is over (a lobby's life, a closed lobby's grace).
local function forget_due(now)
    for _, member in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, 100)) do
        local id = string.sub(member, 3)
        if string.sub(member, 1, 1) == 's' then
            redis.call('HDEL', seekers, id)
        else
            local stored = redis.call('HGET', lobbies, id)
            if stored then redis.call('ZREM', open, cjson.decode(stored).m) end
            redis.call('HDEL', lobbies, id)
        end
        redis.call('ZREM', due, member)
    end
end

local function id_of(lobby)
    return string.match(lobby.m, '|([^|]+)$')
end

-- Every seeker of `lobby` is done waiting at `done` (ms; 0: waiting again, until the lobby's end, `life_end`).
local function settle(lobby, done, life_end)
    for _, holder in ipairs(lobby.seats) do
        local stored = holder ~= '' and redis.call('HGET', seekers, holder)
        if stored then
            local seeker = cjson.decode(stored)
            if seeker.g == id_of(lobby) then
                seeker.ends = done
                redis.call('HSET', seekers, holder, cjson.encode(seeker))
                redis.call('ZADD', due, done > 0 and done or life_end, 's:' .. holder)
            end
        end
    end
end

local function full(lobby)
    for _, holder in ipairs(lobby.seats) do
        if holder == '' then return false end
    end
    return true
end
