// Best's choice marked on a replay's table, for the analysis (loaded with analysis.js, only when asked for): one
// function per game, by its catalog name, that finds on the table its own module drew (tables/*.js) the cards, the
// pile or the seat that `best`'s actions would have moved, and marks them; each returns how many actions it marked
// (the analysis says them in words in any case).

import {h} from "./dom.js";
import {t} from "./i18n.js";

export const HINTS = {"the-game": theGame, ninja, "bataille-corse": batailleCorse};

/** Mark `element` (a card, a pile, a seat's cards) as moved by best's `order`-th action: outlined, with the order as
 * a badge (several on one element: "1·2"; drawn by CSS, so that a button's visible text stays its name) and in its
 * accessible name. `false` when the table has no such element. */
function markBest(element, order) {
  if (!element) return false;
  let badge = element.querySelector(":scope > .best-badge");
  if (!badge) {
    badge = element.appendChild(h("span", {class: "best-badge", "aria-hidden": "true"}));
    element.classList.add("best-hint");
  }
  badge.dataset.order = badge.dataset.order ? `${badge.dataset.order}·${order}` : String(order);
  const label = element.getAttribute("aria-label");
  if (label) element.setAttribute("aria-label", t("analysis.best_mark", {label: element.dataset.label ??= label, order: badge.dataset.order}));
  return true;
}

/** The Game: each card played, in its seat's hand, and its pile (signals and the end of the turn: words only). */
function theGame(root, actions) {
  const plays = actions.filter((action) => action.type === "play");
  plays.forEach((play, index) => {
    markBest(root.querySelector(`.seat-hand[data-seat="${play.seat}"] [data-text="${play.card}"]`), index + 1);
    markBest(root.querySelector(`[data-key="pile-${play.pile}"]`), index + 1);
  });
  return plays.length;
}

/** Ninja: the cards played, swapped, completed or taken (in the seat's hand or face up), the pile picked up or
 * accepted, the seat given the pile (`ready`: words only). */
function ninja(root, actions) {
  const seat = (number) => root.querySelector(`.nj-seat[data-seat="${number}"]`);
  return actions.filter((action, index) => {
    const cards = (where, value, count = 1) => [...(seat(action.seat)?.querySelectorAll(
      `${where} [data-text="${value === 0 ? "N" : value}"]:not(.best-hint)`) || [])].slice(0, count);
    const marked = {
      play: () => [...cards(".in-hand", action.value, action.count), ...cards(".face-up", action.value, action.count)]
        .slice(0, action.count),
      complete: () => cards(".in-hand", action.value, 2),
      swap: () => [...cards(".in-hand", action.hand_card), ...cards(".face-up", action.face_up_card)],
      take_face_up: () => cards(".face-up", action.value),
      pick_up: () => [root.querySelector(".nj-pile")],
      accept: () => [root.querySelector(".nj-pile")],
      give: () => [action.target === null ? null : seat(action.target)],
    }[action.type]?.() || [];
    return marked.filter((element) => markBest(element, index + 1)).length > 0;
  }).length;
}

/** Bataille corse: the packet a flip comes from, or the pile to slap (best waiting: no action, words only). */
function batailleCorse(root, actions) {
  return actions.filter((action, index) => markBest(action.type === "flip"
    ? root.querySelector(`.bc-seat[data-seat="${action.seat}"] .backs`) : root.querySelector(".bc-pile"), index + 1)).length;
}
