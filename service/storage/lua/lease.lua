-- Take a game's clock lease (clock/runner.py): KEYS[1] the lease; ARGV[1] the taker's id, ARGV[2] how long (ms).
-- Answers 1 if the taker holds it now (free, or already its own: renewed), else 0: one runner per game at a time.
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
