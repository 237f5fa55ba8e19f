-- Play now: seat a player in the oldest open lobby of its pool that fits, or open one (service/pairing/pool.py).
-- ARGV: player, pool, the id of a lobby to open, now ms, players, rating ("" unrated), bots_at ms (0: none),
-- lobby life ms, grace ms, window base, step, every (ms), close margin ms. A rated seeker fits a lobby when every
-- rating in it is within base + step * floor(the lobby's wait / every) of its own. A lobby whose bots come within
-- the margin takes nobody more. Answers {kind, game id, seat, full (0/1), pool, created ms, bots_at ms}: kind
-- "same" (the seat held already: waiting in this pool or another, or in a lobby of this pool filled within the
-- grace), "joined" or "opened".
local player, pool, new_id = ARGV[1], ARGV[2], ARGV[3]
local now, players, rating = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local bots_at, life, grace = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local base, step, every, margin = tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13])

local function fits(lobby)
    if rating == nil then return true end
    local window = base + step * math.floor((now - lobby.created) / every)
    for seat, other in ipairs(lobby.ratings) do
        if lobby.seats[seat] ~= '' and math.abs(other - rating) > window then return false end
    end
    return true
end

local function join(lobby)
    local seat = 1
    while lobby.seats[seat] ~= '' do seat = seat + 1 end
    lobby.seats[seat], lobby.ratings[seat] = player, rating or 0
    if bots_at > 0 and (lobby.bots_at == 0 or bots_at < lobby.bots_at) then lobby.bots_at = bots_at end
    local ends = 0
    if full(lobby) then
        ends = now + grace
        redis.call('ZREM', open, lobby.m)
        settle(lobby, ends, 0)
    end
    redis.call('HSET', lobbies, id_of(lobby), cjson.encode(lobby))
    redis.call('HSET', seekers, player, cjson.encode({g = id_of(lobby), s = seat - 1, pool = pool, ends = ends}))
    redis.call('ZADD', due, ends > 0 and ends or lobby.created + life, 's:' .. player)
    return {'joined', id_of(lobby), seat - 1, ends > 0 and 1 or 0, pool, lobby.created, lobby.bots_at}
end

local function open_lobby()
    local seats, ratings = {player}, {rating or 0}
    for seat = 2, players do seats[seat], ratings[seat] = '', 0 end
    local member = string.format('%s|%013d|%s', pool, now, new_id)
    local lobby = {pool = pool, m = member, seats = seats, ratings = ratings, created = now, bots_at = bots_at}
    redis.call('HSET', lobbies, new_id, cjson.encode(lobby))
    redis.call('ZADD', open, 0, member)
    redis.call('ZADD', due, now + life, 'l:' .. new_id)
    redis.call('HSET', seekers, player, cjson.encode({g = new_id, s = 0, pool = pool, ends = 0}))
    redis.call('ZADD', due, now + life, 's:' .. player)
    return {'opened', new_id, 0, 0, pool, now, bots_at}
end

local function seek()
    local held = redis.call('HGET', seekers, player)
    if held then
        local seeker = cjson.decode(held)
        local stored = redis.call('HGET', lobbies, seeker.g)
        if stored and (seeker.ends == 0 or (seeker.ends > now and seeker.pool == pool)) then
            local lobby = cjson.decode(stored)
            return {'same', seeker.g, seeker.s, seeker.ends == 0 and 0 or 1, seeker.pool, lobby.created, lobby.bots_at}
        end
        redis.call('HDEL', seekers, player)
    end
    for _, member in ipairs(redis.call('ZRANGEBYLEX', open, '[' .. pool .. '|', '[' .. pool .. '|~', 'LIMIT', 0, 100)) do
        local stored = redis.call('HGET', lobbies, string.match(member, '|([^|]+)$'))
        if not stored then
            redis.call('ZREM', open, member)
        else
            local lobby = cjson.decode(stored)
            if lobby.bots_at > 0 and now >= lobby.bots_at - margin then
                redis.call('ZREM', open, member)  -- its bots are about to take the empty seats: closed to seekers
                settle(lobby, lobby.bots_at + grace, 0)
            elseif fits(lobby) then
                return join(lobby)
            end
        end
    end
    return open_lobby()
end

forget_due(now)
local answer = seek()
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, life + grace) end
return answer
