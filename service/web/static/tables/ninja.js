// Ninja's table: the pile and its reference card, the stock and the burned cards, every seat's face-up cards and
// face-down counts, your hand; the swap phase (a hand card, then a face-up card), a 13's target, and completions out
// of turn. Every move offered is one of the seat's `legal_actions`.

import {backs, card} from "../cards.js";
import {h, keepFocus} from "../dom.js";

const NOTES = {1: "on 13", 6: "≤ 6 next", 8: "skip", 9: "burn", 13: "give"};
const SHOWN_ON_PILE = 6; // the pile's top cards drawn; the count says the rest
const swapping = new WeakMap(); // table element -> the hand card chosen to swap

const valueName = (value) => (value === 0 ? "NINJA" : String(value));
const plural = (value, count) => (count === 1 ? valueName(value) : `${count} × ${valueName(value)}`);

function ninjaCard(value, options = {}) {
  return card(value === 0 ? "N" : String(value), {
    label: valueName(value), note: value === 0 ? "NINJA" : NOTES[value], hue: value === 0 ? undefined : value * 27,
    ...options,
  });
}

export function render(root, view, ctx) {
  const actions = view.legal_actions || [];
  root.replaceChildren(h("div", {class: "nj-table"},
    centre(view, ctx),
    h("div", {class: "nj-seats"}, view.seats.map((seat) => seatArea(root, seat, view, ctx, actions))),
    view.hand && !view.hands ? handArea(root, view, ctx, actions) : null,
    moves(view, ctx, actions)));
}

function centre(view, ctx) {
  const pile = view.pile || [];
  const top = pile.slice(-SHOWN_ON_PILE);
  const ref = view.ref === null || view.ref === undefined ? "none: anything may be played" : valueName(view.ref);
  const give = view.give
    ? (view.give.target === null ? `${ctx.name(view.give.giver)} gives the pile: choosing a target`
      : `${ctx.name(view.give.giver)} gives the pile to ${ctx.name(view.give.target)}`) : null;
  const completion = view.completion
    ? `A pair of ${valueName(view.completion.value)} is on top: whoever holds the other two may complete` : null;
  return h("div", {class: "nj-centre"},
    h("div", {class: "nj-pile", role: "group", "aria-label": `Pile: ${pile.length} cards`},
      pile.length > top.length ? h("span", {class: "more"}, `+${pile.length - top.length}`) : null,
      top.length ? top.map((value) => ninjaCard(value)) : h("span", {class: "empty"}, "empty pile")),
    h("p", {class: "facts"},
      h("span", {class: "ref"}, `To beat: ${ref}`), h("span", {}, `Stock: ${view.stock}`),
      h("span", {}, `Burned: ${view.burned}`),
      view.phase === "swap" ? h("span", {}, "Swap phase") : null),
    give ? h("p", {class: "notice"}, give) : null,
    completion ? h("p", {class: "notice"}, completion) : null);
}

function seatArea(root, seat, view, ctx, actions) {
  const mine = seat.seat === view.seat;
  const chosen = mine ? swapping.get(root) : undefined;
  const swaps = actions.filter((action) => action.type === "swap" && action.hand_card === chosen);
  const faceUp = seat.face_up.map((value, index) => {
    const swap = swaps.find((action) => action.face_up_card === value);
    return swap
      ? ninjaCard(value, {key: `up-${value}-${index}`, label: `swap ${valueName(chosen)} for ${valueName(value)}`,
        onclick: () => { swapping.delete(root); ctx.send(swap); }})
      : ninjaCard(value, {look: "small"});
  });
  const hand = view.hands ? view.hands[seat.seat] : null;
  return h("section", {class: ["nj-seat", mine && "mine"], "data-seat": seat.seat,
    "aria-label": mine ? "Your cards on the table" : `${ctx.name(seat.seat)}'s cards`},
    h("h3", {}, mine ? "You" : ctx.name(seat.seat), view.phase === "swap" && seat.ready ? " (ready)" : ""),
    h("div", {class: "row"},
      hand ? h("div", {class: "cards in-hand", role: "group", "aria-label": `${ctx.name(seat.seat)}'s hand`}, hand.map((value) => ninjaCard(value, {look: "small"})))
        : (mine ? null : backs(seat.hand_size, "in hand")),
      h("div", {class: "cards face-up", role: "group", "aria-label": "face up"}, faceUp),
      seat.face_down ? backs(seat.face_down, "face down") : null));
}

function handArea(root, view, ctx, actions) {
  const chosen = swapping.get(root);
  const swappable = new Set(actions.filter((action) => action.type === "swap").map((action) => action.hand_card));
  const choose = (value) => {
    swapping.set(root, chosen === value ? undefined : value);
    keepFocus(root, () => render(root, view, ctx));
    if (swapping.get(root) !== undefined) root.querySelector(".nj-seat.mine .face-up button")?.focus();
  };
  return h("div", {class: "hand", role: "group", "aria-label": "Your hand"},
    view.hand.length ? view.hand.map((value, index) => swappable.has(value)
      ? ninjaCard(value, {key: `hand-${value}-${index}`, selected: value === chosen, onclick: () => choose(value),
        label: `${valueName(value)}: swap with a face-up card`})
      : ninjaCard(value)) : h("span", {class: "empty"}, "no card in hand"));
}

function label(action, ctx) {
  switch (action.type) {
    case "play": return `Play ${plural(action.value, action.count)}`;
    case "pick_up": return "Pick up the pile";
    case "give": return action.target === null ? "Keep the 13 (give to nobody)" : `Give the pile to ${ctx.name(action.target)}`;
    case "accept": return "Take the pile";
    case "complete": return `Complete the ${valueName(action.value)}s!`;
    case "take_face_up": return `Take ${valueName(action.value)} from the table`;
    case "ready": return "Ready";
    default: return null;
  }
}

function moves(view, ctx, actions) {
  const offered = actions.filter((action) => action.type !== "swap" && label(action, ctx));
  if (!offered.length) return null;
  return h("div", {class: "moves-bar", role: "group", "aria-label": "Your moves"},
    offered.map((action) => h("button", {type: "button", key: `act-${JSON.stringify(action)}`,
      class: [action.type === "complete" ? "urgent" : "primary"], onclick: () => ctx.send(action)}, label(action, ctx))));
}

export function todo(view) {
  if (view.seat === undefined) return null;
  const types = new Set((view.legal_actions || []).map((action) => action.type));
  if (types.has("complete")) return "Complete the pair now, before the next move!";
  if (view.phase === "swap") {
    return types.has("ready") ? "Swap: choose a hand card, then a face-up card; press Ready when done." : "Waiting for the others to be ready.";
  }
  if (types.has("give")) return "You placed 13: choose who takes the pile.";
  if (types.has("accept")) return "The pile is given to you: counter with 13s or 1s, or take it.";
  if (types.has("take_face_up")) return "Choose which face-up card to take into your hand.";
  if (types.has("play")) return "Your turn: play a group at least as high as the card to beat.";
  if (types.has("pick_up")) return "Nothing you hold can be played: pick up the pile.";
  return null;
}

export function describe(entry, name, names) {
  switch (entry.type) {
    case "swap": return `${name} swapped ${valueName(entry.hand_card)} for ${valueName(entry.face_up_card)}`;
    case "ready": return `${name} is ready`;
    case "play": return `${name} played ${plural(entry.value, entry.count)}`;
    case "pick_up": return `${name} picked up the pile`;
    case "give": return entry.target === null ? `${name} keeps the 13` : `${name} gives the pile to ${names(entry.target)}`;
    case "accept": return `${name} takes the pile`;
    case "complete": return `${name} completed the ${valueName(entry.value)}s`;
    case "take_face_up": return `${name} took ${valueName(entry.value)} from the table`;
    default: return null;
  }
}
