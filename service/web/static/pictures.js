// Each game's table in a small picture for the lobby's tiles: inline SVG built as elements (the page's policy allows
// no inline markup), coloured by the page's own CSS (classes, both colour schemes), decorative: the tile's words
// say what it is.

import {s} from "./dom.js";

const W = 160;
const H = 96;

/** A card at (x, y), turned by `turn` degrees, showing `text` (`null`: its back). */
function card(x, y, text, {turn = 0, mark = ""} = {}) {
  return s("g", {transform: `translate(${x} ${y}) rotate(${turn})`},
    s("rect", {class: text === null ? "pic-back" : `pic-card ${mark}`, x: -12, y: -17, width: 24, height: 34, rx: 3}),
    text === null ? null : s("text", {class: "pic-ink", x: 0, y: 5, "text-anchor": "middle"}, text));
}

const PICTURES = {
  // four piles, two going up from 1, two going down from 100, and a hand below
  "the-game": () => [
    ...[["↑", "23"], ["↑", "41"], ["↓", "87"], ["↓", "60"]].map(([arrow, top], index) => [
      card(28 + index * 35, 32, top), s("text", {class: "pic-label", x: 28 + index * 35, y: 62, "text-anchor": "middle"}, arrow)]),
    ...["12", "35", "58", "77"].map((value, index) => card(50 + index * 20, 84, value, {turn: (index - 1.5) * 6})),
  ],
  // a pile with a 13 on top, face-up cards before a player, a NINJA in hand
  ninja: () => [
    card(56, 40, "6", {turn: -8}), card(64, 38, "9", {turn: 4}), card(72, 40, "13", {turn: 10, mark: "pic-hot"}),
    s("rect", {class: "pic-back", x: 104, y: 20, width: 24, height: 34, rx: 3}),
    card(34, 84, "8"), card(60, 84, "N", {mark: "pic-hot"}), card(86, 84, "1"), card(112, 84, "6"),
  ],
  // three cards flipped on the pile, a sandwich (3, 5, 3), and a hand slapping it
  "bataille-corse": () => [
    card(62, 48, "3♣", {turn: -14}), card(78, 46, "5♦", {turn: 6}), card(92, 50, "3♥", {turn: 18, mark: "pic-hot"}),
    s("path", {class: "pic-hand", d: "M112 10c8 0 14 6 14 14v10l6-6c3-3 8 0 6 4l-12 16c-3 4-8 6-13 6h-6c-7 0-12-5-12-12V22c0-3 5-3 5 0v8V14c0-3 5-3 5 0v14V10c0-3 5-3 5 0z"}),
    s("rect", {class: "pic-back", x: 14, y: 68, width: 24, height: 24, rx: 3}), s("rect", {class: "pic-back", x: 124, y: 68, width: 24, height: 24, rx: 3}),
  ],
};

/** The picture of `game`'s table (an empty felt for a game without one). */
export function picture(game) {
  return s("svg", {class: "picture", viewBox: `0 0 ${W} ${H + 12}`, "aria-hidden": "true", focusable: "false"},
    s("rect", {class: "pic-felt", x: 0, y: 0, width: W, height: H + 12, rx: 10}), PICTURES[game]?.() || []);
}
