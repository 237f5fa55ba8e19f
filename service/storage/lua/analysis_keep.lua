-- Keep a finished game's analysis as long as the game (analysis/store.py): KEYS[1] the game, KEYS[2] the analysis,
-- KEYS[3] the lease, KEYS[4] the progress; ARGV[1] the lease's token, ARGV[2] the analysis (JSON). The analysis
-- expires when the game does (its PTTL now); the lease, if still this run's, and the progress go. Answers 1 if
-- kept, 0 if the game is gone.
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('SET', KEYS[2], ARGV[2], 'PX', ttl) end
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
redis.call('DEL', KEYS[4])
if ttl > 0 then return 1 end
return 0
