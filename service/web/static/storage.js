// What the browser keeps: the person's name, their player key (docs/api.md "Players") and, per game, the tokens it
// holds (a reload resumes the seat).

const NAME = "tg.name";
const PLAYER = "tg.player";
const GAMES = "tg.games";
const KEEP = 50; // games remembered: the newest ones

function read() {
  try {
    return JSON.parse(localStorage.getItem(GAMES)) || {};
  } catch {
    return {};
  }
}

export function name() {
  return localStorage.getItem(NAME) || "";
}

export function setName(value) {
  localStorage.setItem(NAME, value.trim());
}

/** This browser's player, `{player_id, key, key_id}`, or `null` (none yet, or signed out). */
export function player() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER));
  } catch {
    return null;
  }
}

/** Keep `made` (`POST /v1/players`'s or `/v1/players/link`'s answer) as this browser's player; `null` forgets it. */
export function setPlayer(made) {
  if (made) localStorage.setItem(PLAYER, JSON.stringify({player_id: made.player_id, key: made.key, key_id: made.key_id}));
  else localStorage.removeItem(PLAYER);
}

/** `{seat, seatToken, hostToken}` held for a game (`{}` when none). */
export function held(gameId) {
  return read()[gameId] || {};
}

/** Merge `facts` into what is held for `gameId` (a `null` forgets that fact). */
export function hold(gameId, facts) {
  const games = read();
  const merged = {...games[gameId], ...facts, at: Date.now()};
  for (const [key, value] of Object.entries(merged)) if (value === null) delete merged[key];
  games[gameId] = merged;
  const newest = Object.entries(games).sort((a, b) => b[1].at - a[1].at).slice(0, KEEP);
  localStorage.setItem(GAMES, JSON.stringify(Object.fromEntries(newest)));
}

/** Forget `gameId` (the server no longer has it). */
export function forget(gameId) {
  const games = read();
  delete games[gameId];
  localStorage.setItem(GAMES, JSON.stringify(games));
}

/** The newest games held, `[id, facts]`, newest first. */
export function recent(count = 8) {
  return Object.entries(read()).sort((a, b) => b[1].at - a[1].at).slice(0, count);
}
