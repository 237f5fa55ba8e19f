// Cards drawn with CSS: a face with the value in the middle and in two corners, a back for hidden cards.

import {h} from "./dom.js";

/** A card's face: a button when `onclick` is given (with `label` for screen readers), otherwise an image. */
export function card(text, {label = text, hue, note, selected, onclick, key, disabled, size} = {}) {
  const face = [
    h("span", {class: "corner top", "aria-hidden": "true"}, text),
    h("span", {class: "value", "aria-hidden": "true"}, text),
    note ? h("span", {class: "note", "aria-hidden": "true"}, note) : null,
    h("span", {class: "corner bottom", "aria-hidden": "true"}, text),
  ];
  const classes = ["card", size, selected && "selected"];
  const element = onclick
    ? h("button", {class: classes, type: "button", onclick, key, disabled, "aria-label": label, "aria-pressed": selected === undefined ? null : String(selected)}, face)
    : h("div", {class: classes, role: "img", "aria-label": label}, face);
  if (hue !== undefined) element.style.setProperty("--hue", String(hue));
  return element;
}

/** `count` face-down cards as a small stack with its count (`label` says what they are). */
export function backs(count, label) {
  return h("div", {class: "backs", role: "img", "aria-label": `${label}: ${count}`},
    h("span", {class: "card back small", "aria-hidden": "true"}),
    h("span", {class: "count", "aria-hidden": "true"}, `${count} ${label}`));
}
