-- Give a lease back (taken by storage/leases.py: a game's clock, clock/runner.py):
-- KEYS[1] the lease; ARGV[1] the token it was taken with. Only its holder may: a run whose lease expired while it
-- worked must not free its successor's.
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
