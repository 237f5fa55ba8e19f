-- The wrk script of bench/service.sh:  wrk -t T -c C -d D -s bench/service.lua URL -- MODE GAMES_FILE T
--
-- MODE health: GET /v1/health.
-- MODE views:  GET /v1/games/{id} as a seat, rotating over the games and their two seat tokens.
-- MODE plays:  POST /v1/games/{id}/plays and POST .../turn/end with the seat tokens. Each wrk thread owns
--   its share of the games and keeps one request in flight per game at most (so the players of a game act in
--   turn, as people would); every 200 answer carries the game's id, and the game's known state (hands, pile
--   tops, current seat, cards placed and required) is updated from it. The next action is chosen from that
--   state: the legal card that moves its pile least, beyond the turn's minimum only if it moves it by 2 at most.
--   An error answer carries no game id: its game is refreshed with a GET after STALE more requests.
-- done() prints one line: RESULT <mode> rps=... p50_ms=... p99_ms=... 2xx=... 4xx=... and the mode's counters.

local STALE = 200 -- requests of one thread after which a game's unanswered request is taken as lost

local threads = {}

function setup(thread)
   thread:set("id", #threads)
   table.insert(threads, thread)
end

-- Thread state (globals are read by done() through thread:get).
n2xx, n4xx, nother, nplays, nends, nrefreshes, nfallbacks, nended = 0, 0, 0, 0, 0, 0, 0, 0
mode = nil
local games, by_id = {}, {}
local sent, cursor = 0, 0

local function numbers(text)
   local list = {}
   for number in text:gmatch("%d+") do
      list[#list + 1] = tonumber(number)
   end
   return list
end

function init(args)
   mode = args[1]
   if mode == "health" then
      return
   end
   local nthreads, index = tonumber(args[3]), 0
   for line in io.lines(args[2]) do
      if index % nthreads == id then
         local game_id, token0, token1, hand0, hand1 = line:match("^(%S+) (%S+) (%S+) (%S+) (%S+)$")
         local game = {
            id = game_id,
            tokens = { token0, token1 },
            hands = { numbers(hand0), numbers(hand1) },
            tops = { asc1 = 1, asc2 = 1, desc1 = 100, desc2 = 100 },
            current = 0, placed = 0, required = 2,
         }
         games[#games + 1] = game
         by_id[game_id] = game
      end
      index = index + 1
   end
end

local function get(game, seat)
   return wrk.format("GET", "/v1/games/" .. game.id, { Authorization = "Bearer " .. game.tokens[seat] })
end

local function post(game, seat, path, body)
   local headers = { Authorization = "Bearer " .. game.tokens[seat], ["Content-Type"] = "application/json" }
   return wrk.format("POST", "/v1/games/" .. game.id .. "/" .. path, headers, body)
end

-- The next action of the game's current seat, or nil when it has none (the game is lost).
local function action(game)
   local seat = game.current + 1
   local best, best_jump
   for _, card in ipairs(game.hands[seat]) do
      for pile, top in pairs(game.tops) do
         local jump = pile:sub(1, 3) == "asc" and card - top or top - card
         if (jump > 0 or jump == -10) and (best == nil or jump < best_jump) then
            best, best_jump = string.format('{"card":%d,"pile":"%s"}', card, pile), jump
         end
      end
   end
   if best and (game.placed < game.required or best_jump <= 2) then
      nplays = nplays + 1
      return post(game, seat, "plays", best)
   end
   if game.placed >= game.required then
      nends = nends + 1
      return post(game, seat, "turn/end", "{}")
   end
   return nil
end

local function next_play()
   for _ = 1, #games do
      cursor = cursor % #games + 1
      local game = games[cursor]
      if not game.over then
         if game.busy and sent - game.busy > STALE then
            game.busy = sent
            nrefreshes = nrefreshes + 1
            return get(game, game.current + 1)
         end
         if not game.busy then
            local request = action(game)
            if request then
               game.busy = sent
               return request
            end
            game.over = true
         end
      end
   end
   nfallbacks = nfallbacks + 1 -- every game is busy or over
   return wrk.format("GET", "/v1/health")
end

function request()
   sent = sent + 1
   if mode == "health" then
      return wrk.format("GET", "/v1/health")
   elseif mode == "views" then
      local game = games[sent % #games + 1]
      return get(game, math.floor(sent / #games) % 2 + 1)
   end
   return next_play()
end

local function update(game, body)
   if body:match('"status":"(%a+)"') ~= "playing" then
      game.over = true
      nended = nended + 1
      return
   end
   game.current = tonumber(body:match('"current_seat":(%d+)'))
   game.placed = tonumber(body:match('"placed_this_turn":(%d+)'))
   game.required = tonumber(body:match('"required_this_turn":(%d+)'))
   local seat, hand = body:match('"seat":(%d+),"hand":%[([%d,]*)%]')
   game.hands[tonumber(seat) + 1] = numbers(hand)
   for pile, top in body:gmatch('"id":"(%w+)","direction":"%a+","top":(%d+)') do
      game.tops[pile] = tonumber(top)
   end
end

function response(status, headers, body)
   if status >= 200 and status < 300 then
      n2xx = n2xx + 1
   elseif status >= 400 and status < 500 then
      n4xx = n4xx + 1
   else
      nother = nother + 1
   end
   if mode == "plays" and status == 200 then
      local game = by_id[body:match('"game_id":"([^"]+)"')]
      if game and game.busy then
         game.busy = nil
         update(game, body)
      end
   end
end

function done(summary, latency, requests)
   local names = { "n2xx", "n4xx", "nother", "nplays", "nends", "nrefreshes", "nfallbacks", "nended" }
   local total = {}
   for _, name in ipairs(names) do
      total[name] = 0
      for _, thread in ipairs(threads) do
         total[name] = total[name] + thread:get(name)
      end
   end
   local mode = threads[1]:get("mode")
   local errors = summary.errors
   local seconds = summary.duration / 1e6
   io.write(string.format(
      "RESULT %s rps=%.1f p50_ms=%.2f p99_ms=%.2f 2xx=%d 4xx=%d other=%d socket_errors=%d",
      mode, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
      total.n2xx, total.n4xx, total.nother, errors.connect + errors.read + errors.write + errors.timeout))
   if mode == "plays" then
      io.write(string.format(" plays=%d ends=%d refreshes=%d fallbacks=%d games_ended=%d",
         total.nplays, total.nends, total.nrefreshes, total.nfallbacks, total.nended))
   end
   io.write("\n")
end
