// The Game's table: four piles with their direction and signals, the hand, the turn's count, the draw pile, the score.
// Play: choose a card of your hand, then a pile it may go on (only the piles `legal_actions` allow are enabled).

import {card} from "../cards.js";
import {focusKey, h, keepFocus} from "../dom.js";
import {icon} from "../icons.js";

const SIGNALS = {dont_play: ["stop", "don't play here"], no_big_jump: ["jump", "no big jump here"]};
const PILE_NAMES = {asc1: "first up pile", asc2: "second up pile", desc1: "first down pile", desc2: "second down pile"};
const selected = new WeakMap(); // table element -> the card chosen in the hand
const tops = new WeakMap(); // table element -> the piles' tops last drawn (a new top lands with a short animation)

const theCard = (value, options = {}) => card(String(value), {hue: Math.round((value - 2) * 3.5), ...options});
const pileName = (id) => PILE_NAMES[id] || id;

export function render(root, view, ctx) {
  const plays = (view.legal_actions || []).filter((action) => action.type === "play");
  let chosen = selected.get(root);
  if (!plays.some((play) => play.card === chosen)) chosen = undefined;
  const choose = (value) => {
    selected.set(root, chosen === value ? undefined : value);
    keepFocus(root, () => render(root, view, ctx));
    if (selected.get(root) !== undefined) focusKey(root, `pile-${plays.find((play) => play.card === value).pile}`);
  };
  const play = (pile) => {
    selected.delete(root);
    ctx.send({type: "play", card: chosen, pile});
  };
  const before = tops.get(root) || {};
  tops.set(root, Object.fromEntries(view.piles.map((pile) => [pile.id, pile.top])));
  root.replaceChildren(h("div", {class: "tg-table"},
    facts(view),
    h("div", {class: "tg-piles", role: "group", "aria-label": "Piles"},
      view.piles.map((pile) => pileArea(pile, view, ctx, chosen, plays, play, before[pile.id] !== undefined && before[pile.id] !== pile.top))),
    view.hand ? hand(view, plays, chosen, choose) : null,
    view.hands ? everyHand(view, ctx) : null,
    endTurn(view, ctx)));
}

function facts(view) {
  const turn = view.status === "playing" && view.current_seat !== null
    ? `Placed this turn: ${view.placed_this_turn} of at least ${view.required_this_turn}` : null;
  return h("p", {class: "facts"},
    h("span", {}, `Draw pile: ${view.draw_pile}`), turn ? h("span", {}, turn) : null,
    h("span", {}, `Score: ${view.score} (cards not yet placed)`));
}

function pileArea(pile, view, ctx, chosen, plays, play, landed) {
  const up = pile.direction === "up";
  const allowed = chosen !== undefined && plays.some((each) => each.card === chosen && each.pile === pile.id);
  const label = `${pileName(pile.id)}, going ${pile.direction}, top ${pile.top}` + (allowed ? `: place ${chosen} here` : "");
  const signals = view.signals.filter((signal) => signal.pile === pile.id);
  return h("div", {class: ["tg-pile", allowed && "target"]},
    h("button", {class: "pile", type: "button", key: `pile-${pile.id}`, disabled: !allowed, "aria-label": label,
      onclick: () => play(pile.id)},
      icon(up ? "up" : "down"), theCard(pile.top, {label: String(pile.top), look: landed ? "landed" : undefined})),
    h("ul", {class: "signals", "aria-label": `Signals on the ${pileName(pile.id)}`},
      signals.map((signal) => h("li", {},
        icon(SIGNALS[signal.kind][0], `${ctx.name(signal.seat)}: ${SIGNALS[signal.kind][1]}`)))),
    signalMenu(pile, view, ctx));
}

function signalMenu(pile, view, ctx) {
  const offered = (view.legal_actions || []).filter((action) => action.type === "signal" && action.pile === pile.id);
  if (!offered.length) return null;
  return h("details", {class: "signal-menu"}, h("summary", {}, "Signal"),
    offered.map((action) => h("button", {type: "button", class: "small", key: `signal-${pile.id}-${action.kind}-${action.clear}`,
      onclick: () => ctx.send(action)},
      icon(SIGNALS[action.kind][0]), `${action.clear ? "Withdraw" : "Ask"}: ${SIGNALS[action.kind][1]}`)));
}

function hand(view, plays, chosen, choose) {
  // With no card to play (not your turn, the game over), the hand takes the focus itself, so that a keyboard can
  // still scroll a hand wider than a phone's screen.
  const idle = !view.hand.some((value) => plays.some((play) => play.card === value));
  return h("div", {class: "hand", role: "group", "aria-label": "Your hand", tabindex: idle ? "0" : undefined},
    view.hand.map((value) => {
      const playable = plays.some((play) => play.card === value);
      return theCard(value, {key: `card-${value}`, selected: value === chosen, disabled: !playable,
        label: `${value}${playable ? "" : " (no pile takes it now)"}`, onclick: () => choose(value)});
    }));
}

function everyHand(view, ctx) {
  return h("div", {class: "all-hands"}, view.hands.map((cards, seat) =>
    h("div", {class: "seat-hand", role: "group", "aria-label": `${ctx.name(seat)}'s hand`, "data-seat": seat},
      h("span", {class: "who"}, ctx.name(seat)), cards.map((value) => theCard(value, {look: "small"})))));
}

function endTurn(view, ctx) {
  if (!view.legal_actions) return null;
  const can = view.legal_actions.some((action) => action.type === "end_turn");
  return h("div", {class: "turn-actions"},
    h("button", {type: "button", class: "primary", key: "end-turn", disabled: !can,
      onclick: () => ctx.send({type: "end_turn"})}, "End turn"));
}

/** What to do now, for the seat (`null`: nothing to say beyond whose turn it is). */
export function todo(view) {
  if (view.seat === undefined || view.current_seat !== view.seat) return null;
  const more = view.required_this_turn - view.placed_this_turn;
  if (more > 0) return `Your turn: place ${more} more card${more > 1 ? "s" : ""} (choose a card, then a pile).`;
  return "Your turn: place more cards or end the turn.";
}

/** A log entry in words. */
export function describe(entry, name) {
  if (entry.type === "play") return `${name} played ${entry.card} on the ${pileName(entry.pile)}`;
  if (entry.type === "end_turn") return `${name} ended the turn`;
  if (entry.type === "signal") {
    const what = SIGNALS[entry.kind]?.[1] || entry.kind;
    return `${name} ${entry.clear ? "withdrew" : "signals"} “${what}” on the ${pileName(entry.pile)}`;
  }
  return null;
}

/** A seat's public facts, next to its name. */
export function seatFacts(seat) {
  return seat.hand_size === undefined ? null : `${seat.hand_size} card${seat.hand_size === 1 ? "" : "s"} in hand`;
}
