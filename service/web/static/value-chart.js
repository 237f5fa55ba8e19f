// An analysis's values over the game as a small line chart (inline SVG built here, no library): one point per
// decision at the value of the move made, a tick at best's value joined to it (the gap is what the move cost), the
// costliest moves ringed and numbered, a line at the replay's decision. Each point is a button: a click (anywhere on
// the chart: the nearest point across, so that a game of a hundred moves still has targets a finger can hit), or the
// arrow keys (one tab stop for the whole chart) then Enter or Space, jumps the replay there.

import {s} from "./dom.js";
import {t} from "./i18n.js";

const WIDTH = 640; // at most: a narrower panel draws it as wide as itself, so that its text keeps its size
const HEIGHT = 170;
const PAD = {left: 44, right: 12, top: 12, bottom: 24};
export const SERIES_COLOURS = 6; // analysis.css's .series-0 ... .series-5

/** The chart: `points` (one per decision: `{value, best, series, label, flag}`), the values' `range` ([low, high]),
 * the axis' `unit` and whether lower values are better (`lowerIsBetter`: drawn at the top), `onPick(index)`, the
 * `room` it has (px). Returns the SVG element and `mark(index)` (the decision the replay is at, or -1). */
export function valueChart({points, range, unit, lowerIsBetter, label, onPick, room}) {
  const width = Math.round(Math.min(WIDTH, Math.max(300, room)));
  const [low, high] = range;
  const step = points.length > 1 ? (width - PAD.left - PAD.right) / (points.length - 1) : 0;
  const x = (index) => PAD.left + index * step;
  const y = (value) => {
    const share = Math.min(Math.max((value - low) / (high - low || 1), 0), 1);
    return PAD.top + (lowerIsBetter ? share : 1 - share) * (HEIGHT - PAD.top - PAD.bottom);
  };
  const cursor = s("line", {class: "chart-cursor", y1: PAD.top, y2: HEIGHT - PAD.bottom, visibility: "hidden"});
  const buttons = points.map((point, index) => pointButton(point, x(index), y, Math.min(10, step / 2 || 10),
    () => onPick(index)));
  const svg = s("svg", {class: "value-chart", viewBox: `0 0 ${width} ${HEIGHT}`, role: "group", "aria-label": label},
    axes(range, unit, lowerIsBetter, y, width), lines(points, x, y), cursor, buttons);
  svg.addEventListener("keydown", (event) => move(event, buttons));
  svg.addEventListener("click", (event) => {
    const across = (event.clientX - svg.getBoundingClientRect().left) * width / svg.getBoundingClientRect().width;
    const index = step ? Math.min(Math.max(Math.round((across - PAD.left) / step), 0), points.length - 1) : 0;
    rove(buttons, index);
    onPick(index);
  });
  rove(buttons, 0);
  return {
    element: svg,
    mark(index) {
      cursor.setAttribute("visibility", index < 0 ? "hidden" : "visible");
      if (index < 0) return;
      cursor.setAttribute("x1", x(index));
      cursor.setAttribute("x2", x(index));
      if (!svg.contains(document.activeElement)) rove(buttons, index);
    },
  };
}

function axes([low, high], unit, lowerIsBetter, y, width) {
  const ticks = [low, (low + high) / 2, high].map((value) => s("g", {class: "chart-tick"},
    s("line", {x1: PAD.left - 4, x2: width - PAD.right, y1: y(value), y2: y(value)}),
    s("text", {x: PAD.left - 6, y: y(value) + 4, "text-anchor": "end"}, unit.format(value))));
  return s("g", {class: "chart-axes", "aria-hidden": "true"}, ticks,
    s("text", {x: PAD.left, y: HEIGHT - 6}, t(lowerIsBetter ? "analysis.axis_fewer_top" : "analysis.axis", {measure: unit.name})));
}

function lines(points, x, y) {
  const series = new Map();
  points.forEach((point, index) => series.set(point.series, [...(series.get(point.series) || []), `${x(index)},${y(point.value)}`]));
  return s("g", {"aria-hidden": "true"}, [...series].map(([number, coordinates]) =>
    s("polyline", {class: `chart-line series-${number % SERIES_COLOURS}`, points: coordinates.join(" ")})));
}

function pointButton(point, cx, y, reach, pick) {
  const [at, best] = [y(point.value), y(point.best)];
  const button = s("g", {class: ["chart-point", point.flag && "flagged"], role: "button", "aria-label": point.label,
    onkeydown: (event) => (event.key === "Enter" || event.key === " ") && (event.preventDefault(), pick())},
  Math.abs(at - best) > 0.5 ? s("line", {class: "chart-gap", x1: cx, x2: cx, y1: at, y2: best}) : null,
  s("rect", {class: "chart-best", x: cx - 2.5, y: best - 2.5, width: 5, height: 5}),
  s("circle", {class: `chart-dot series-${point.series % SERIES_COLOURS}`, cx, cy: at, r: point.flag ? 5 : 3.5}),
  point.flag ? s("circle", {class: "chart-ring", cx, cy: at, r: 9}) : null,
  point.flag ? s("text", {class: "chart-flag", x: cx, y: at - 12, "text-anchor": "middle"}, String(point.flag)) : null,
  s("circle", {class: "chart-hit", cx, cy: at, r: reach})); // the focus ring
  return button;
}

/** One tab stop: the point at `index` takes the focus order, the others leave it. */
function rove(buttons, index) {
  buttons.forEach((button, each) => button.setAttribute("tabindex", each === index ? "0" : "-1"));
}

function move(event, buttons) {
  const from = buttons.indexOf(document.activeElement);
  const to = {ArrowRight: from + 1, ArrowDown: from + 1, ArrowLeft: from - 1, ArrowUp: from - 1, Home: 0,
    End: buttons.length - 1}[event.key];
  if (from < 0 || to === undefined) return;
  event.preventDefault();
  const index = Math.min(Math.max(to, 0), buttons.length - 1);
  rove(buttons, index);
  buttons[index].focus();
}
