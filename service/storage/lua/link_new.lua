-- A new link code (players/links.py), only if its id is free. KEYS[1] the code; ARGV[1] the player, ARGV[2] the
-- secret half's hash, ARGV[3] when it stops being valid (ms), ARGV[4] how long the key stays (s: a used or expired
-- code is still told apart from a wrong one for a while). Answers 1 if made, 0 if the id is taken.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'player', ARGV[1], 'h', ARGV[2], 'until', ARGV[3], 'tries', 0)
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
