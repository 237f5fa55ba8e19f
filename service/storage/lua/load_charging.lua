-- Load a game and charge its caller's token budget in one round trip (store.py; needs gcra.lua before it).
-- KEYS[1] the game, KEYS[2] a token's change budget (on the game's slot); ARGV[1] the idempotency field to read
-- (or 'rev'), ARGV[2] the token's digest, ARGV[3] now, ARGV[4] the interval (both ms), ARGV[5] the burst.
-- Reads like HMGET and charges the budget if the digest is one of the game's tokens, i.e. a JSON string in `meta`
-- (digests are base64url: never escaped, and never equal to anything else stored there). Answers meta, state, rev,
-- the field, then the ms to wait (0: charged, or not one of the game's tokens).
local values = redis.call('HMGET', KEYS[1], 'meta', 'state', 'rev', ARGV[1])
local wait = 0
if values[1] and string.find(values[1], '"' .. ARGV[2] .. '"', 1, true) then
    wait = gcra(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]))
end
values[5] = wait
return values
