// Small DOM helpers: elements built from data, never from HTML strings (no injection, no inline styles).

const SVG = "http://www.w3.org/2000/svg";

/** An element: `h("button", {class: "card", onclick, "aria-label": "7"}, "7")`. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  return fill(element, props, children);
}

/** An SVG element, same form as `h`. */
export function s(tag, props = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), props, children);
}

function fill(element, props, children) {
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (name === "text") element.textContent = value;
    else if (name === "key") element.dataset.key = value;
    else if (name === "value" && "value" in element) element.value = value;
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Run `draw` (which rebuilds `root`'s content), keeping the keyboard focus on the element with the same
 * `data-key` if there still is one, else on the first button of the hand, else on the first button shown. */
export function keepFocus(root, draw) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.key : undefined;
  draw();
  if (key === undefined || focusKey(root, key) || root.contains(document.activeElement)) return;
  const shown = (selector) => [...root.querySelectorAll(selector)].find((each) => each.checkVisibility());
  (shown(".hand button:not(:disabled)") || shown("button:not(:disabled)"))?.focus();
}

/** Focus the first enabled element of `root` with `data-key` = `key` (`true` if there was one). */
export function focusKey(root, key) {
  const target = [...root.querySelectorAll("[data-key]")].find((each) => each.dataset.key === key && !each.disabled);
  if (target) target.focus();
  return Boolean(target);
}

/** Add the style sheet at `href` to the page once; the promise resolves when it applies (or failed to load), so that
 * what is drawn after it never shows unstyled. */
export function useStyle(href) {
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve) => {
      document.head.append(h("link", {rel: "stylesheet", href, onload: resolve, onerror: resolve}));
    }));
  }
  return sheets.get(href);
}
const sheets = new Map();

/** Whether the person asked for less motion. */
export const calm = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
