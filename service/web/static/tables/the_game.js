// The Game's table: four piles with their direction and signals, the hand, the turn's count, the draw pile, the score.
// Play: choose a card of your hand, then a pile it may go on (only the piles `legal_actions` allow are enabled).

import {card} from "../cards.js";
import {focusKey, h, keepFocus} from "../dom.js";
import {t} from "../i18n.js";
import {icon} from "../icons.js";

export const stylesheet = "/web/tables/the_game.css";

const SIGNAL_ICONS = {dont_play: "stop", no_big_jump: "jump"};
const selected = new WeakMap(); // table element -> the card chosen in the hand
const tops = new WeakMap(); // table element -> the piles' tops last drawn (a new top lands with a short animation)

const theCard = (value, options = {}) => card(String(value), {hue: Math.round((value - 2) * 3.5), ...options});
const pileName = (id) => t(`games:the-game.piles.${id}`);
const signalName = (kind) => t(`games:the-game.signals.${kind}`);

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
    h("div", {class: "tg-piles", role: "group", "aria-label": t("games:the-game.table.piles")},
      view.piles.map((pile) => pileArea(pile, view, ctx, chosen, plays, play, before[pile.id] !== undefined && before[pile.id] !== pile.top))),
    view.hand ? hand(view, plays, chosen, choose) : null,
    view.hands ? everyHand(view, ctx) : null,
    endTurn(view, ctx)));
}

function facts(view) {
  const turn = view.status === "playing" && view.current_seat !== null
    ? t("games:the-game.table.placed", {placed: view.placed_this_turn, required: view.required_this_turn}) : null;
  return h("p", {class: "facts"},
    h("span", {}, t("games:the-game.table.draw_pile", {count: view.draw_pile})), turn ? h("span", {}, turn) : null,
    h("span", {}, t("games:the-game.table.score", {score: view.score})));
}

function pileArea(pile, view, ctx, chosen, plays, play, landed) {
  const up = pile.direction === "up";
  const allowed = chosen !== undefined && plays.some((each) => each.card === chosen && each.pile === pile.id);
  const label = t(`games:the-game.table.pile_${pile.direction}`, {pile: pileName(pile.id), top: pile.top})
    + (allowed ? t("games:the-game.table.place_here", {card: chosen}) : "");
  const signals = view.signals.filter((signal) => signal.pile === pile.id);
  return h("div", {class: ["tg-pile", allowed && "target"]},
    h("button", {class: "pile", type: "button", key: `pile-${pile.id}`, disabled: !allowed, "aria-label": label,
      onclick: () => play(pile.id)},
      icon(up ? "up" : "down"), theCard(pile.top, {label: String(pile.top), look: landed ? "landed" : undefined})),
    h("ul", {class: "signals", "aria-label": t("games:the-game.table.signals_on", {pile: pileName(pile.id)})},
      signals.map((signal) => h("li", {},
        icon(SIGNAL_ICONS[signal.kind], `${ctx.name(signal.seat)}: ${signalName(signal.kind)}`)))),
    signalMenu(pile, view, ctx));
}

function signalMenu(pile, view, ctx) {
  const offered = (view.legal_actions || []).filter((action) => action.type === "signal" && action.pile === pile.id);
  if (!offered.length) return null;
  return h("details", {class: "signal-menu"}, h("summary", {}, t("games:the-game.table.signal")),
    offered.map((action) => h("button", {type: "button", class: "small", key: `signal-${pile.id}-${action.kind}-${action.clear}`,
      onclick: () => ctx.send(action)},
      icon(SIGNAL_ICONS[action.kind]), t(action.clear ? "games:the-game.table.withdraw" : "games:the-game.table.ask", {signal: signalName(action.kind)}))));
}

function hand(view, plays, chosen, choose) {
  // With no card to play (not your turn, the game over), the hand takes the focus itself, so that a keyboard can
  // still scroll a hand wider than a phone's screen.
  const idle = !view.hand.some((value) => plays.some((play) => play.card === value));
  return h("div", {class: "hand", role: "group", "aria-label": t("table.your_hand"), tabindex: idle ? "0" : undefined},
    view.hand.map((value) => {
      const playable = plays.some((play) => play.card === value);
      return theCard(value, {key: `card-${value}`, selected: value === chosen, disabled: !playable,
        label: playable ? String(value) : t("games:the-game.table.unplayable", {card: value}), onclick: () => choose(value)});
    }));
}

function everyHand(view, ctx) {
  return h("div", {class: "all-hands"}, view.hands.map((cards, seat) =>
    h("div", {class: "seat-hand", role: "group", "aria-label": t("table.hand_of", {name: ctx.name(seat)}), "data-seat": seat},
      h("span", {class: "who"}, ctx.name(seat)), cards.map((value) => theCard(value, {look: "small"})))));
}

function endTurn(view, ctx) {
  if (!view.legal_actions || view.status !== "playing") return null;
  const can = view.legal_actions.some((action) => action.type === "end_turn");
  return h("div", {class: "turn-actions"},
    h("button", {type: "button", class: "primary", key: "end-turn", disabled: !can,
      onclick: () => ctx.send({type: "end_turn"})}, t("games:the-game.table.end_turn")));
}

/** What to do now, for the seat (`null`: nothing to say beyond whose turn it is). */
export function todo(view) {
  if (view.seat === undefined || view.current_seat !== view.seat) return null;
  const more = view.required_this_turn - view.placed_this_turn;
  if (more > 0) return t("games:the-game.todo.place", {count: more});
  return t("games:the-game.todo.place_or_end");
}

/** What the change from `before` to `view` meant, shown over the table: a turn ended, and the cards drawn. */
export function happened(before, view, name) {
  if (before.current_seat === null || before.current_seat === view.current_seat || view.status !== "playing") return null;
  const drew = before.draw_pile - view.draw_pile;
  return t(drew ? "games:the-game.happened.turn_drew" : "games:the-game.happened.turn_ended", {name: name(before.current_seat),
    context: before.current_seat === view.seat ? "you" : undefined, count: drew});
}

/** A log entry in words. */
export function describe(entry, who) {
  if (entry.type === "play") return t("games:the-game.log.play", {...who, card: entry.card, pile: pileName(entry.pile)});
  if (entry.type === "end_turn") return t("games:the-game.log.end_turn", who);
  if (entry.type === "signal") {
    return t(entry.clear ? "games:the-game.log.withdraw" : "games:the-game.log.signal",
      {...who, signal: signalName(entry.kind), pile: pileName(entry.pile)});
  }
  return null;
}

/** A seat's public facts, next to its name. */
export function seatFacts(seat) {
  return seat.hand_size === undefined ? null : t("table.in_hand", {count: seat.hand_size});
}

/** Best's actions marked for the analysis (`mark`: hints.js): each card played, in its seat's hand, and its pile
 * (signals and the end of the turn: words only). */
export function hint(root, actions, mark) {
  const plays = actions.filter((action) => action.type === "play");
  plays.forEach((play, index) => {
    mark(root.querySelector(`.seat-hand[data-seat="${play.seat}"] [data-text="${play.card}"]`), index + 1);
    mark(root.querySelector(`[data-key="pile-${play.pile}"]`), index + 1);
  });
  return plays.length;
}
