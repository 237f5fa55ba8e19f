-- A player's finished game of The Game (service/ratings/the_game_records.py): KEYS[1] their games (hash: game id
-- -> the game as their record needs it), ARGV[1] the game id, ARGV[2] the game (JSON), ARGV[3] the TTL (s).
-- Answers 1 if the game is new to them, 0 if stored again (the same field, rewritten).
local new = redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return new
