// Cards drawn with CSS: a face with the value in the middle and in two corners, a back for hidden cards.

import {h} from "./dom.js";

/** A card's face: a button when `onclick` is given (with `label` for screen readers), otherwise an image. */
export function card(text, {label = text, hue, note, selected, onclick, key, disabled, look} = {}) {
  // The corners and the note are drawn by CSS from data attributes: the visible text is the value alone.
  const face = h("span", {class: "value", "aria-hidden": "true", "data-note": note}, text);
  const classes = ["card", look, selected && "selected"]; // look: "small", "landed" (just placed)
  const element = onclick
    ? h("button", {class: classes, type: "button", onclick, key, disabled, "aria-label": label, "aria-pressed": selected === undefined ? null : String(selected)}, face)
    : h("div", {class: classes, role: "img", "aria-label": label}, face);
  element.dataset.text = text;
  if (hue !== undefined) element.style.setProperty("--hue", String(hue));
  return element;
}

/** Face-down cards as a small stack, with `text` saying how many and what they are ("22 cards"). */
export function backs(text) {
  return h("div", {class: "backs", role: "img", "aria-label": text},
    h("span", {class: "card back small", "aria-hidden": "true"}),
    h("span", {class: "count", "aria-hidden": "true"}, text));
}
