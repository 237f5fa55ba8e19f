-- Renew a game's analysis lease and note how far the work is (analysis/store.py): KEYS[1] the lease, KEYS[2] the
-- progress; ARGV[1] the token the lease was taken with, ARGV[2] the lease's new life (ms), ARGV[3] the progress
-- ("done/total"). Only its holder may: answers 1 if renewed, 0 if the lease is another's or gone.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
return 1
