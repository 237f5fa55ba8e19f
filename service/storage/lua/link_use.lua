-- A link code exchanged (players/links.py), atomically, so that it is used once. KEYS[1] the code; ARGV[1] the
-- secret half's hash as sent, ARGV[2] now (ms), ARGV[3] the wrong tries a code takes. Answers {outcome, player,
-- ms left}: 'ok' (now used), 'unknown', 'used', 'expired', 'wrong' (counted) or 'spent' (too many wrong tries).
local code = redis.call('HMGET', KEYS[1], 'player', 'h', 'until', 'tries', 'used')
if not code[1] then return {'unknown', '', 0} end
if code[5] then return {'used', '', 0} end
local left = tonumber(code[3]) - tonumber(ARGV[2])
if left <= 0 then return {'expired', '', 0} end
if tonumber(code[4]) >= tonumber(ARGV[3]) then return {'spent', '', left} end
if code[2] ~= ARGV[1] then
    redis.call('HINCRBY', KEYS[1], 'tries', 1)
    return {'wrong', '', left}
end
redis.call('HSET', KEYS[1], 'used', 1)
return {'ok', code[1], left}
