// Best's choice marked on a replay's table, for the analysis (loaded with analysis.js, only when asked for): each
// table module's `hint(root, actions, mark)` finds on the table it drew the cards, the pile or the seat that
// `best`'s actions would have moved, and marks each with `markBest`; it returns how many actions it marked (the
// analysis says them in words in any case).

import {h} from "./dom.js";
import {t} from "./i18n.js";

/** Mark `element` (a card, a pile, a seat's cards) as moved by best's `order`-th action: outlined, with the order as
 * a badge (several on one element: "1·2"; drawn by CSS, so that a button's visible text stays its name) and in its
 * accessible name. `false` when the table has no such element. */
export function markBest(element, order) {
  if (!element) return false;
  let badge = element.querySelector(":scope > .best-badge");
  if (!badge) {
    badge = element.appendChild(h("span", {class: "best-badge", "aria-hidden": "true"}));
    element.classList.add("best-hint");
  }
  badge.dataset.order = badge.dataset.order ? `${badge.dataset.order}·${order}` : String(order);
  const label = element.getAttribute("aria-label");
  if (label) element.setAttribute("aria-label", t("analysis.best_mark", {label: element.dataset.label ??= label, order: badge.dataset.order}));
  return true;
}
