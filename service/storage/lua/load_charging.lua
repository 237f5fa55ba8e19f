-- Load a game and charge its caller's change budget in one round trip (store.py; needs gcra.lua before it).
-- KEYS[1] the game, KEYS[2] its change budgets (a hash on the game's slot); ARGV[1] the idempotency field to read
-- (or 'rev'), ARGV[2] the token's digest, ARGV[3] now, ARGV[4] the interval (both ms), ARGV[5] the burst.
-- Reads like HMGET and, if the digest is the host's or a seat's token, charges that place's budget: field 'host'
-- or 'seat:<n>', so that a seat freed and taken again with a fresh token keeps the budget it spent. A player key's
-- caller sends its player id instead, found as the seat's seventh item (the player it is bound to). Answers meta,
-- state, rev, the field, then the ms to wait (0: charged, or not one of the game's tokens).
local values = redis.call('HMGET', KEYS[1], 'meta', 'state', 'rev', ARGV[1])
local wait = 0
if values[1] and string.find(values[1], '"' .. ARGV[2] .. '"', 1, true) then
    local meta, place = cjson.decode(values[1]), nil
    if meta.host == ARGV[2] then
        place = 'host'
    else
        for index, seat in ipairs(meta.seats) do
            if type(seat) == 'table' and (seat[2] == ARGV[2] or seat[7] == ARGV[2]) then
                place = 'seat:' .. (index - 1)
            end
        end
    end
    if place then
        wait = gcra(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), place)
    end
end
values[5] = wait
return values
