// "Play now" (docs/api.md "Play now"): the first button of each game's tile seats the person, by their player key, in
// a lobby of that game with whoever else presses it, then shows "Looking for players… (n s)" with a Cancel until the
// table is full (or bots take the empty seats after BOTS_AFTER_S) and lands at the table. One wait at a time: a tile
// drawn again while it waits shows the same live status, and after a reload the tab asks again (the same seat).

import {call, get} from "./api.js";
import {h} from "./dom.js";
import {refusal, t} from "./i18n.js";
import * as storage from "./storage.js";

const BOTS_AFTER_S = 60; // then bots fill the table: nobody waits for ever on a quiet evening
const POLL_MS = 1000;
const KEPT = "tg.playNow"; // this tab's wait, {game, players, since}: a reload takes it up again

let waiting = null; // {game, gameId, since, timer, status}

/** `entry`'s "Play now" for `players` seats (or its live status while it waits); `askName` makes sure the person has
 * a name, and so a player key (the page makes the player with the name, as for "My games"). */
export function playNow(entry, players, askName) {
  if (waiting?.game === entry.name) return waiting.status;
  const error = h("p", {class: "error", role: "alert"});
  const button = h("button", {type: "button", class: "primary play-now", id: `play-now-${entry.name}`,
    onclick: async () => {
      error.textContent = "";
      if (!askName() || waiting) return;
      try {
        await seek(entry, players, holder);
      } catch (caught) {
        error.textContent = refusal(caught, entry.name);
      }
    }}, t("lobby.play_now"));
  const holder = h("div", {class: "play-now-box"}, button, error);
  const kept = keptWait();
  if (kept?.game === entry.name && !waiting) {
    setTimeout(() => seek(entry, kept.players, holder, kept.since).catch(() => sessionStorage.removeItem(KEPT)));
  }
  return holder;
}

function keptWait() {
  try {
    return JSON.parse(sessionStorage.getItem(KEPT));
  } catch {
    return null;
  }
}

async function seek(entry, players, holder, since = Date.now()) {
  const seated = await call("POST", "/pairing", {body: {game: entry.name, players, bots_after_s: BOTS_AFTER_S}});
  if (seated.token) storage.hold(seated.game_id, {seat: seated.seat, seatToken: seated.token});
  if (seated.status !== "lobby") return land(seated.game_id);
  if (waiting) return; // asked twice at once (a reload's ask and a click): the first one shows the wait
  sessionStorage.setItem(KEPT, JSON.stringify({game: entry.name, players, since}));
  const line = h("p", {role: "status", "aria-live": "polite"});
  const status = h("div", {class: "play-now-box"}, line,
    h("small", {}, t("lobby.play_now_bots", {seconds: BOTS_AFTER_S})),
    h("button", {type: "button", id: `play-now-cancel-${entry.name}`, onclick: () => cancel(holder)}, t("lobby.play_now_cancel")));
  waiting = {game: entry.name, gameId: seated.game_id, since, status, line};
  tick();
  waiting.timer = setInterval(tick, POLL_MS);
  holder.replaceWith(status);
}

/** Count the seconds and look at the table: landing there once it has started. */
async function tick() {
  const wait = waiting;
  if (!wait) return;
  wait.line.textContent = t("lobby.play_now_looking", {seconds: Math.round((Date.now() - wait.since) / 1000)});
  try {
    const view = await get(`/games/${wait.gameId}`);
    if (waiting === wait && view.status !== "lobby") land(wait.gameId);
  } catch {
    // a moment without the service: the next tick looks again
  }
}

function land(gameId) {
  stop();
  location.hash = `#/game/${gameId}`;
}

function stop() {
  if (waiting) clearInterval(waiting.timer);
  waiting = null;
  sessionStorage.removeItem(KEPT);
}

async function cancel(holder) {
  const wait = waiting;
  stop();
  try {
    await call("DELETE", "/pairing");
    wait.status.replaceWith(holder);
  } catch (caught) {
    if (caught.code === "game_started") return land(wait.gameId); // too late: the table is full
    wait.status.replaceWith(holder);
    holder.querySelector(".error").textContent = refusal(caught);
  }
}
