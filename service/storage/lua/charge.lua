-- Charge one request against a client's budget (limits; needs gcra.lua before it): KEYS[1] the client's bucket;
-- ARGV[1] now, ARGV[2] the interval between requests at the sustained rate (both ms), ARGV[3] the burst.
-- Answers 0 if the request may go (and counts it), else the ms to wait.
return gcra(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
