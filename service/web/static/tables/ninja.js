// Ninja's table: the pile and its reference card, the stock and the burned cards, every seat's face-up cards and
// face-down counts, your hand; the swap phase (a hand card, then a face-up card), a 13's target, and completions out
// of turn. Every move offered is one of the seat's `legal_actions`.

import {backs, card} from "../cards.js";
import {h, keepFocus} from "../dom.js";
import {list, t} from "../i18n.js";

export const stylesheet = "/web/tables/ninja.css";

const NOTED = [1, 6, 8, 9, 13]; // the cards with a power: a note on the card says it
const SHOWN_ON_PILE = 6; // the pile's top cards drawn; the count says the rest
const swapping = new WeakMap(); // table element -> the hand card chosen to swap

const valueName = (value) => (value === 0 ? "NINJA" : String(value));
const group = (value, count) => t("games:ninja.group", {count, value: valueName(value)});
const note = (value) => (value === 0 ? "NINJA" : NOTED.includes(value) ? t(`games:ninja.notes.${value}`) : undefined);

function ninjaCard(value, options = {}) {
  return card(value === 0 ? "N" : String(value), {
    label: valueName(value), note: note(value), hue: value === 0 ? undefined : value * 27,
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
  const ref = view.ref === null || view.ref === undefined ? t("games:ninja.table.anything") : valueName(view.ref);
  const give = view.give
    ? t(view.give.target === null ? "games:ninja.table.choosing_target" : "games:ninja.table.giving", {name: ctx.name(view.give.giver),
      target: view.give.target === null ? "" : ctx.name(view.give.target), context: giveContext(view.give, view.seat)}) : null;
  const completion = view.completion ? t("games:ninja.table.completion", {value: valueName(view.completion.value)}) : null;
  return h("div", {class: "centre"},
    h("div", {class: "nj-pile stack", role: "group", "aria-label": t("games:ninja.table.pile", {count: pile.length})},
      pile.length > top.length ? h("span", {class: "more"}, `+${pile.length - top.length}`) : null,
      top.length ? top.map((value) => ninjaCard(value)) : h("span", {class: "empty"}, t("table.empty_pile"))),
    h("p", {class: "facts"},
      h("span", {class: "ref"}, t("games:ninja.table.to_beat", {ref})), h("span", {}, t("games:ninja.table.stock", {count: view.stock})),
      h("span", {}, t("games:ninja.table.burned", {count: view.burned})),
      view.phase === "swap" ? h("span", {}, t("games:ninja.table.swap_phase")) : null),
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
      ? ninjaCard(value, {key: `up-${value}-${index}`, label: t("games:ninja.table.swap_for", {card: valueName(chosen), other: valueName(value)}),
        onclick: () => { swapping.delete(root); ctx.send(swap); }})
      : ninjaCard(value, {look: "small"});
  });
  const hand = view.hands ? view.hands[seat.seat] : null;
  return h("section", {class: ["nj-seat", mine && "mine"], "data-seat": seat.seat,
    "aria-label": mine ? t("games:ninja.table.your_cards") : t("games:ninja.table.cards_of", {name: ctx.name(seat.seat)})},
    h("h3", {}, ctx.name(seat.seat), view.phase === "swap" && seat.ready ? ` ${t("games:ninja.table.ready_mark")}` : ""),
    h("div", {class: "row"},
      hand ? h("div", {class: "cards in-hand", role: "group", "aria-label": t("table.hand_of", {name: ctx.name(seat.seat)})}, hand.map((value) => ninjaCard(value, {look: "small"})))
        : (mine ? null : backs(t("table.in_hand", {count: seat.hand_size}))),
      h("div", {class: "cards face-up", role: "group", "aria-label": t("games:ninja.table.face_up")}, faceUp),
      seat.face_down ? backs(t("games:ninja.table.face_down", {count: seat.face_down})) : null));
}

function handArea(root, view, ctx, actions) {
  const chosen = swapping.get(root);
  const swappable = new Set(actions.filter((action) => action.type === "swap").map((action) => action.hand_card));
  const choose = (value) => {
    swapping.set(root, chosen === value ? undefined : value);
    keepFocus(root, () => render(root, view, ctx));
    if (swapping.get(root) !== undefined) root.querySelector(".nj-seat.mine .face-up button")?.focus();
  };
  return h("div", {class: "hand", role: "group", "aria-label": t("table.your_hand")},
    view.hand.length ? view.hand.map((value, index) => swappable.has(value)
      ? ninjaCard(value, {key: `hand-${value}-${index}`, selected: value === chosen, onclick: () => choose(value),
        label: t("games:ninja.table.swap_this", {card: valueName(value)})})
      : ninjaCard(value)) : h("span", {class: "empty"}, t("games:ninja.table.no_hand")));
}

function label(action, ctx) {
  switch (action.type) {
    case "play": return t("games:ninja.moves.play", {group: group(action.value, action.count)});
    case "pick_up": return t("games:ninja.moves.pick_up");
    case "give": return action.target === null ? t("games:ninja.moves.keep") : t("games:ninja.moves.give", {name: ctx.name(action.target)});
    case "accept": return t("games:ninja.moves.accept");
    case "complete": return t("games:ninja.moves.complete", {value: valueName(action.value)});
    case "take_face_up": return t("games:ninja.moves.take_face_up", {value: valueName(action.value)});
    case "ready": return t("games:ninja.moves.ready");
    default: return null;
  }
}

function moves(view, ctx, actions) {
  const offered = actions.filter((action) => action.type !== "swap" && label(action, ctx));
  if (!offered.length) return null;
  return h("div", {class: "moves-bar", role: "group", "aria-label": t("table.your_moves")},
    offered.map((action) => h("button", {type: "button", key: `act-${JSON.stringify(action)}`,
      class: [action.type === "complete" ? "urgent" : "primary"], onclick: () => ctx.send(action)}, label(action, ctx))));
}

export function todo(view) {
  if (view.seat === undefined) return null;
  const types = new Set((view.legal_actions || []).map((action) => action.type));
  if (types.has("complete")) return t("games:ninja.todo.complete");
  if (view.phase === "swap") return t(types.has("ready") ? "games:ninja.todo.swap" : "games:ninja.todo.others_ready");
  for (const type of ["give", "accept", "take_face_up", "play", "pick_up"]) {
    if (types.has(type)) return t(`games:ninja.todo.${type}`);
  }
  return null;
}

/** What the change from `before` to `view` meant, shown over the table: a pile burned, picked up or given, turns
 * skipped by 8s; `null` for a plain play. */
export function happened(before, view, name) {
  const N = "games:ninja.happened.";
  const you = (seat) => (seat === view.seat ? "you" : undefined);
  if (view.burned > before.burned) return t(`${N}burned`, {count: view.burned - before.burned});
  if (view.give?.target != null && view.give.target !== before.give?.target) {
    return t(`${N}given`, {name: name(view.give.giver), target: name(view.give.target), context: you(view.give.target)});
  }
  const picker = view.seats.find((seat) => seat.hand_size - before.seats[seat.seat].hand_size >= Math.max(1, before.pile.length));
  if (before.pile.length && !view.pile.length && picker) {
    return t(`${N}picked_up`, {name: name(picker.seat), context: you(picker.seat), count: before.pile.length});
  }
  const placed = view.pile.slice(before.pile.length);
  const player = before.current_seat;
  if (placed.length && placed.every((value) => value === 8) && player !== null && view.current_seat !== null) {
    const order = view.seats.map((seat) => seat.seat);
    const skipped = [];
    for (let seat = (player + 1) % order.length; seat !== view.current_seat && skipped.length < order.length; seat = (seat + 1) % order.length) {
      if (seat !== player) skipped.push(seat);
    }
    // said to the seat itself when it is among them: named first ("You and Ann skip your turns")
    const named = skipped.includes(view.seat) ? [view.seat, ...skipped.filter((seat) => seat !== view.seat)] : skipped;
    if (skipped.length) return t(`${N}skipped`, {names: list(named.map(name)), count: skipped.length, context: you(named[0])});
  }
  return null;
}

/** A give's context: said to the giver ("you"), to its target ("to_you"), or of others. */
const giveContext = ({giver, target}, me) => (giver === me ? "you" : target === me ? "to_you" : undefined);

export function describe(entry, who, names, me) {
  const context = entry.type === "give" ? giveContext({giver: entry.seat, target: entry.target}, me) : who.context;
  const vars = {...who, context, card: valueName(entry.hand_card), other: valueName(entry.face_up_card), value: valueName(entry.value),
    group: entry.type === "play" ? group(entry.value, entry.count) : "", target: entry.target === undefined || entry.target === null ? "" : names(entry.target)};
  if (entry.type === "give" && entry.target === null) return t("games:ninja.log.keep", vars);
  return ["swap", "ready", "play", "pick_up", "give", "accept", "complete", "take_face_up"].includes(entry.type)
    ? t(`games:ninja.log.${entry.type}`, vars) : null;
}

/** Best's actions marked for the analysis (`mark`: hints.js): the cards played, swapped, completed or taken (in
 * the seat's hand or face up), the pile picked up or accepted, the seat given the pile (`ready`: words only). */
export function hint(root, actions, mark) {
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
    return marked.filter((element) => mark(element, index + 1)).length > 0;
  }).length;
}
