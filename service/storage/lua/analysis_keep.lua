-- Keep a finished game's analysis as long as the game (analysis/store.py): KEYS[1] the game, KEYS[2] the analysis;
-- ARGV[1] the analysis (JSON). The analysis expires when the game does (its PTTL now), and is written once: a part
-- retried after the analysis was put together writes nothing. Answers 1 if kept now, 0 if the game is gone or the
-- analysis was kept already.
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 and redis.call('SET', KEYS[2], ARGV[1], 'PX', ttl, 'NX') then return 1 end
return 0
