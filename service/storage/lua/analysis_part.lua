-- One part of an analysis worked out (analysis/waiting.py): KEYS[1] the analysis's work hash; ARGV[1] the part's
-- field, ARGV[2] its decisions (JSON), ARGV[3] the parts in all. Answers every part's decisions, in part order, when
-- this write completes the set (once: a part written again after that finds the hash gone), else an empty list.
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local parts = tonumber(ARGV[3])
local fields = {}
for part = 0, parts - 1 do fields[#fields + 1] = 'p' .. part end
local all = redis.call('HMGET', KEYS[1], unpack(fields))
for _, decisions in ipairs(all) do
  if not decisions then return {} end
end
redis.call('DEL', KEYS[1])
return all
