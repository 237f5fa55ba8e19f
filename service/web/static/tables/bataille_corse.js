// Bataille corse's table: the pile's top cards (those that make combinations), the penalty cards under it, the
// challenge, every seat's packet (a count), state and errors, a Flip button on the seat's turn and a big Slap button,
// also on the Space key (held down, it slaps once). Every move offered is one of the seat's `legal_actions`; each
// slap's result (valid, false, stale) comes from the log and is announced at once (`urgent`).

import {backs, card} from "../cards.js";
import {h} from "../dom.js";
import {list, t} from "../i18n.js";

export const stylesheet = "/web/tables/bataille_corse.css";

const SHOWN_ON_PILE = 5; // a sum of ten may reach this deep; doubles, sandwiches and suites look at three cards
const SUITS = {S: ["♠", "spades", 230], H: ["♥", "hearts", 0], D: ["♦", "diamonds", 0], C: ["♣", "clubs", 230]};
const HONOURS = {A: "ace", J: "jack", Q: "queen", K: "king"};
const tries = (count) => t("games:bataille-corse.table.tries", {count});
const tried = (count) => (count ? t("games:bataille-corse.cards.note", {count}) : undefined); // short, for a card
const result = (words) => t(`games:bataille-corse.results.${words}`);

const tables = new WeakMap(); // table element -> the view and ctx drawn last, for the Space key, and its listeners
const seatOf = (view) => view.seats.find((seat) => seat.seat === view.seat);

/** A card string ("10H", "QS", "RJ") drawn as a face, named in words; an honour notes its tries, as the catalog's
 * `facts.honours` gives them (by rank, a joker by its card). */
function cardFace(text, honours, options = {}) {
  if (text === "RJ" || text === "BJ") {
    return card("★", {label: t(`games:bataille-corse.cards.${text}`), note: tried(honours[text]), hue: 280, ...options});
  }
  const rank = text.slice(0, -1);
  const [symbol, suit, hue] = SUITS[text.at(-1)];
  const rankWords = HONOURS[rank] ? t(`games:bataille-corse.cards.${HONOURS[rank]}`) : rank;
  return card(`${rank}${symbol}`, {label: t(`games:bataille-corse.cards.of_${suit}`, {rank: rankWords}), hue,
    note: tried(honours[rank]), ...options});
}

/** A seat's state in words: out of cards may still slap back in while the game goes on, not after its end. */
function stateWords(seat, view) {
  const over = seat.state === "out" && view.status !== "playing";
  return t(`games:bataille-corse.states.${over ? "out_over" : seat.state}`);
}

export function render(root, view, ctx) {
  const drawn = tables.get(root);
  if (drawn) Object.assign(drawn, {view, ctx});
  else tables.set(root, {view, ctx, listeners: listenForSpace(root)});
  const actions = view.legal_actions || [];
  root.replaceChildren(h("div", {class: "bc-table"},
    centre(view, ctx),
    h("ul", {class: "bc-seats", "aria-label": t("games:bataille-corse.table.packets")}, view.seats.map((seat) => seatArea(seat, view, ctx))),
    view.seat === undefined || view.status !== "playing" ? null : moves(actions, ctx)));
}

function centre(view, ctx) {
  const pile = view.pile || [];
  const top = pile.slice(-SHOWN_ON_PILE);
  const challenge = view.challenge;
  const flipsLeft = (view.options?.max_flips ?? Infinity) - view.flips; // a replay's frames carry no options
  return h("div", {class: "centre"},
    h("div", {class: "bc-pile stack", role: "group", "aria-label": t("games:bataille-corse.table.pile", {count: pile.length})},
      pile.length > top.length ? h("span", {class: "more"}, `+${pile.length - top.length}`) : null,
      top.length ? top.map((text) => cardFace(text, ctx.game?.facts?.honours ?? {})) : h("span", {class: "empty"}, t("table.empty_pile"))),
    h("p", {class: "facts"},
      view.penalty_cards ? h("span", {}, t("games:bataille-corse.table.penalty_cards", {count: view.penalty_cards})) : null,
      h("span", {}, t("games:bataille-corse.table.flips", {count: view.flips})),
      flipsLeft <= 50 ? h("span", {}, t("games:bataille-corse.table.flips_left", {count: flipsLeft})) : null),
    challenge ? h("p", {class: "notice"}, t("games:bataille-corse.table.challenge", {name: ctx.name(challenge.challenger),
      payer: ctx.name(challenge.payer), tries: tries(challenge.attempts_left), context: challenge.payer === view.seat ? "you" : undefined})) : null,
    view.status === "playing" && view.current_seat !== null
      ? h("p", {class: "bc-next"}, t("games:bataille-corse.table.next", {name: ctx.name(view.current_seat),
        context: view.current_seat === view.seat ? "you" : undefined})) : null);
}

function seatArea(seat, view, ctx) {
  return h("li", {class: ["bc-seat", seat.seat === view.seat && "mine", seat.seat === view.current_seat && "turn",
    seat.state !== "in" && seat.state], "data-seat": seat.seat},
  h("span", {class: "who"}, ctx.name(seat.seat)),
  backs(t("table.cards", {count: seat.packet})),
  h("span", {class: "state"}, stateWords(seat, view)),
  seat.errors ? h("span", {class: "errors"}, t("games:bataille-corse.table.errors", {count: seat.errors})) : null);
}

function moves(actions, ctx) {
  const flip = actions.find((action) => action.type === "flip");
  const slap = actions.find((action) => action.type === "slap");
  // Flip keeps its place when it is not the seat's move (hidden, not removed): the Slap target never moves.
  return h("div", {class: "bc-moves", role: "group", "aria-label": t("table.your_moves")},
    h("button", {type: "button", class: ["primary", !flip && "unseen"], key: "flip", disabled: !flip,
      "aria-hidden": flip ? null : "true", onclick: () => flip && ctx.send(flip)}, t("games:bataille-corse.moves.flip")),
    h("button", {type: "button", class: "bc-slap urgent", key: "slap", disabled: !slap,
      "aria-keyshortcuts": "Space", onclick: () => slap && ctx.send(slap)}, t("games:bataille-corse.moves.slap"),
    h("small", {}, t("games:bataille-corse.moves.space"))));
}

/** The page leaves the table: its Space key is no longer listened for. */
export function unmount(root) {
  for (const [type, listener] of tables.get(root)?.listeners || []) document.removeEventListener(type, listener);
  tables.delete(root);
}

/** Space slaps with the focus on the table or on nothing, not in a field nor on the page's other controls (Space
 * still presses "Leave the seat"), nor on Flip (Space presses it: it flips); a key held down slaps once. Returns
 * the listeners added to the document, for `unmount`. */
function listenForSpace(root) {
  const elsewhere = (target) => target.dataset?.key === "flip"
    || (!root.contains(target) && target.closest?.("button, a, input, select, textarea, summary, [contenteditable]"));
  const mine = (event) => event.key === " " && root.isConnected && !event.ctrlKey && !event.altKey && !event.metaKey
    && !elsewhere(event.target);
  const listeners = [
    ["keydown", (event) => {
      if (!mine(event)) return;
      event.preventDefault(); // not a click on the focused button, not a scroll
      const {view, ctx} = tables.get(root);
      const slap = event.repeat ? undefined : (view.legal_actions || []).find((action) => action.type === "slap");
      if (slap) ctx.send(slap);
    }],
    ["keyup", (event) => { if (mine(event)) event.preventDefault(); }],
  ];
  for (const [type, listener] of listeners) document.addEventListener(type, listener);
  return listeners;
}

export function todo(view) {
  const types = new Set((view.legal_actions || []).map((action) => action.type));
  if (view.slap_window?.slaps.includes(view.seat)) return t("games:bataille-corse.todo.held");
  if (types.has("flip")) return t("games:bataille-corse.todo.flip");
  if (types.has("slap")) return t("games:bataille-corse.todo.slap");
  if (seatOf(view)?.state === "excluded") return t("games:bataille-corse.todo.excluded");
  return null;
}

export function seatFacts(seat, view) {
  const cards = t("table.cards", {count: seat.packet});
  return seat.state === "in" ? cards : `${cards}, ${stateWords(seat, view)}`;
}

/** Slaps and their judgement (a collection window's) are announced at once: they change who holds the pile. A slap
 * held in a window is not urgent once its judgement came after it (`fresh`: the entries read together). */
export function urgent(entry, fresh) {
  if (entry.type === "slap" && entry.result === "pending") {
    return !fresh.slice(fresh.indexOf(entry) + 1).some((later) => later.type === "judge");
  }
  return entry.type === "slap" || entry.type === "judge";
}

/** What the change from `before` to `view` meant, in a sentence shown over the table: who took the pile and why
 * (a combination, a challenge won), a false slap and its cost, a slap too late, a challenge and its tries, a seat
 * out; `null` for a plain flip. The server judged it (`last_slap`: the combinations); this puts it in words. */
export function happened(before, view, name) {
  const B = "games:bataille-corse.happened.";
  const gained = (seat) => seat.packet - before.seats[seat.seat].packet;
  if (before.pile.length && !view.pile.length) {
    const taker = view.seats.reduce((most, seat) => (gained(seat) > gained(most) ? seat : most));
    const you = taker.seat === view.seat ? "you" : undefined;
    if (view.flips > before.flips) return t(`${B}challenge_won`, {name: name(taker.seat), context: you});
    const slap = view.last_slap; // the server names the combinations that held on the pile a valid slap won
    const found = (slap?.result === "valid" ? slap.combinations : []).map((each) => t(`games:bataille-corse.combinations.${each}`));
    return t(`${B}${found.length ? "slap_won" : "takes_pile"}`, {name: name(taker.seat), context: you, how: list(found)});
  }
  const paid = (seat) => view.flips === before.flips && gained(seat) < 0; // a false slap's cards (no flip took them)
  const wrong = view.seats.find((seat) => paid(seat) || seat.errors > before.seats[seat.seat].errors);
  if (wrong) {
    return t(`${B}false_slap`, {name: name(wrong.seat), context: wrong.seat === view.seat ? "you" : undefined,
      count: -gained(wrong), where: t(`${B}${view.options?.penalty_place === "top_face_up" ? "on_pile" : "under_pile"}`)});
  }
  const challenge = view.challenge;
  if (challenge && (!before.challenge || challenge.attempts_left !== before.challenge.attempts_left)) {
    return t(`${B}${before.challenge?.payer === challenge.payer ? "tries_left" : "challenge"}`, {name: name(challenge.payer),
      context: challenge.payer === view.seat ? "you" : undefined, count: challenge.attempts_left});
  }
  const gone = view.seats.find((seat) => seat.state !== before.seats[seat.seat].state && seat.state !== "in");
  if (gone && view.status === "playing") return t(`${B}${gone.state}`, {name: name(gone.seat), context: gone.seat === view.seat ? "you" : undefined});
  if (view.slap_window && !before.slap_window) return t(`${B}gathering`);
  const same = view.flips === before.flips && view.pile.length === before.pile.length && !view.slap_window && !before.slap_window;
  return same && view.status === "playing" ? t(`${B}too_late`) : null;
}

export function describe(entry, who, names, me) {
  switch (entry.type) {
    case "flip": return t("games:bataille-corse.log.flip", who);
    case "slap": return entry.result ? t("games:bataille-corse.log.slap_result", {...who, result: result(entry.result)})
      : t("games:bataille-corse.log.slap", who);
    case "judge": return t("games:bataille-corse.log.judge", {results: entry.results.map((judged) =>
      t(`games:bataille-corse.log.judged.${judged.result}`, {name: names(judged.seat),
        context: judged.seat === me ? "you" : undefined})).join("; ")});
    default: return null;
  }
}

/** Best's actions marked for the analysis (`mark`: hints.js): the packet a flip comes from, or the pile to slap
 * (best waiting: no action, words only). */
export function hint(root, actions, mark) {
  return actions.filter((action, index) => mark(action.type === "flip"
    ? root.querySelector(`.bc-seat[data-seat="${action.seat}"] .backs`) : root.querySelector(".bc-pile"), index + 1)).length;
}
