-- A rated game's decision (service/ratings/store.py): KEYS[1] the game's decision, ARGV[1] the decision (JSON),
-- ARGV[2] its TTL (s). The first decision stands: answers 1 if written, 0 if the game was decided already.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return 1 end
return 0
