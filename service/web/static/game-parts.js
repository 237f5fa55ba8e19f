// A game page's parts drawn from a view: the heading, the seats, the line saying what to do now, the outcome, the
// first game's guide, a link to hand on. Each is a function of what it shows, with no state of its own; game.js (the
// controller: the stream, the pacing, the actions, the seat's tokens) puts them in place.

import {h} from "./dom.js";
import {list, t} from "./i18n.js";
import {icon} from "./icons.js";
import {howToPlay} from "./lobby.js";
import {outcomeWords} from "./words.js";

export const isOver = (view) => !["lobby", "playing"].includes(view.status);

/** The game's title, "How to play", its id and the person's role here (`host`: the page holds the host's token). */
export function head(view, gameId, host, ratings) {
  const role = view.seat !== undefined ? t("game.role_seat", {number: view.seat + 1})
    : t(host ? "game.role_host" : "game.role_watch");
  return [h("h2", {tabindex: "-1"}, t(`games:${view.game}.title`)), howToPlay(view.game),
    h("span", {class: "game-id"}, t("game.id", {id: gameId})), ratings?.mark(view), h("span", {class: "role"}, role)];
}

/** Each seat: its name (a free seat says so), its badges, the table's facts of it, whose turn, its clock (counted
 * from `receivedAt`, when the view came); `name(seat)` names a seat. */
export function seats(view, {name, table, receivedAt, ratings}) {
  return view.seats.map((seat) => {
    const turn = view.waiting_for.includes(seat.seat) && !isOver(view);
    const who = seat.name === null && !seat.bot ? t("game.free_seat")
      : seat.name === null ? t("game.open_seat_bot", {name: name(seat.seat)}) : name(seat.seat);
    const facts = table?.seatFacts?.(seat, view);
    const clock = seat.seconds_left !== null && seat.seconds_left !== undefined
      ? h("span", {class: "clock", "data-until": String(receivedAt + seat.seconds_left * 1000)}, icon("clock"), clockText(seat.seconds_left)) : null;
    return h("li", {class: ["seat", turn && "turn", seat.seat === view.seat && "me"], "aria-current": turn ? "true" : null},
      h("span", {class: "who"}, `${seat.seat + 1}. ${who}`), ratings?.badge(view, seat.seat),
      seat.bot && seat.name !== null ? h("span", {class: "badge"}, icon("bot")) : null, // its name says "Bot"
      seat.autoplay ? h("span", {class: "badge"}, t("game.autoplay")) : null,
      facts ? h("span", {class: "facts"}, facts) : null,
      turn ? h("span", {class: "turn-mark"}, t("game.to_play")) : null, clock);
  });
}

/** What to do now, in a sentence: the table's words for the seat, else who is waited for; `name(seat, context)`. */
export function todo(view, table, name) {
  if (view.status === "lobby") return t(view.seats.some((seat) => seat.name === null) ? "game.todo.free_seats" : "game.todo.host_starts");
  if (isOver(view)) return t("game.todo.over");
  const own = table?.todo?.(view);
  if (own) return own;
  return view.waiting_for.length ? t("game.todo.waiting", {names: list(view.waiting_for.map((seat) => name(seat, "object")))})
    : t("game.todo.next");
}

/** A finished game's end: who won and why, the score, the ranking (nothing while it runs). */
export function outcome(view, name, ratings) {
  if (!isOver(view) || !view.outcome) return [];
  const {headline, reason} = outcomeWords(view, name);
  const ranking = view.outcome.ranking?.length
    ? h("ol", {class: "ranking", "aria-label": t("game.ranking")}, view.outcome.ranking.map((seat) => h("li", {}, name(seat), " ", ratings?.badge(view, seat)))) : null;
  return [h("h3", {}, headline), h("p", {}, reason),
    view.score !== undefined ? h("p", {}, t("game.score", {score: view.score})) : null, ranking, ratings?.summary(view)].filter(Boolean);
}

/** A first game's guide: the game in three steps, `open` until this browser has finished a game of it. */
export function guide(game, open) {
  return h("details", {class: "guide", open},
    h("summary", {}, t("game.guide")), h("ol", {}, ["1", "2", "3"].map((step) => h("li", {}, t(`games:${game}.guide.${step}`)))));
}

export function button(text, onclick, key, disabled = false, kind = "") {
  return h("button", {type: "button", class: kind, onclick, key, disabled}, text);
}

/** A link to hand on: the whole address in a field (it wraps on a phone), a Copy button, and Share where the
 * browser offers it (a phone's share sheet); what happened is said beside them. */
export function linkField(id, label, link) {
  const said = h("span", {class: "copied", role: "status"});
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      said.textContent = t("game.copied");
    } catch {
      document.getElementById(id).select();
      said.textContent = t("game.copy_by_hand");
    }
  };
  return h("div", {class: "link-field"},
    h("label", {for: id}, label),
    h("textarea", {id, readonly: true, rows: 2, class: "link", onfocus: (event) => event.target.select()}, link),
    h("span", {class: "link-actions"},
      h("button", {type: "button", onclick: copy}, t("game.copy")),
      navigator.share ? h("button", {type: "button", onclick: () => navigator.share({url: link}).catch(() => {})}, t("game.share")) : null,
      said));
}

/** Seconds left as m:ss. */
export function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
