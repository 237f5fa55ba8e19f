// Small inline SVG icons (built as elements: the page's policy allows no inline markup or external sprites).

import {s} from "./dom.js";

const PATHS = {
  up: "M12 4l7 8h-4.5v8h-5v-8H5z",
  down: "M12 20l-7-8h4.5V4h5v8H19z",
  // don't play here: a raised hand
  stop: "M7 11V6.5a1.5 1.5 0 013 0V11m0-5.5V4.5a1.5 1.5 0 013 0V11m0-5a1.5 1.5 0 013 0V12m0-3.5a1.5 1.5 0 013 0V15a6 6 0 01-6 6h-1.5a6 6 0 01-4.9-2.6L4 15.4a1.5 1.5 0 012.4-1.8L7 14.5V11",
  // no big jump: a jump arrow crossed out
  jump: "M4 18c2-9 9-13 16-10m0 0l-4-3m4 3l-3 4M4 4l16 16",
  clock: "M12 3a9 9 0 110 18 9 9 0 010-18zm0 4v5l3 3",
  bot: "M8 8h8a3 3 0 013 3v5a3 3 0 01-3 3H8a3 3 0 01-3-3v-5a3 3 0 013-3zm4-4v4m-3 5h.01M15 13h.01M9 16h6",
};

/** The icon `name`, decorative unless a `label` is given. */
export function icon(name, label) {
  const svg = s("svg", {class: `icon icon-${name}`, viewBox: "0 0 24 24", "aria-hidden": label ? null : "true",
    role: label ? "img" : null, "aria-label": label || null, focusable: "false"}, s("path", {d: PATHS[name]}));
  return svg;
}
