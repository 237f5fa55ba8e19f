// A finished game's analysis beside its replay, loaded by replay.js with `import()` when asked for (the first load
// carries none of it). `GET /v1/games/{id}/analysis` answers `202` while a process of the service works it out: the
// panel polls its `Location`, waiting longer each time, and says how far it is; then, for each decision (docs/api.md,
// "Analysis"), what `best` would have done (marked on the table by hints.js, and in words beside the move),
// the value of the move made against best's, the values as a chart over the game, and the costliest moves flagged.

import {announce} from "./announce.js";
import {exchange} from "./api.js";
import {h, useStyle} from "./dom.js";
import {number, refusal, t} from "./i18n.js";
import {markBest} from "./hints.js";
import {SERIES_COLOURS, valueChart} from "./value-chart.js";

const MOST_WAIT_S = 15; // between polls, however long the analysis takes
const BACKOFF = 1.5;
const FLAGGED = 3; // the costliest moves flagged

/** Measures by the analysis' `measure`: a value's number, how it reads, and a cost in words. */
const tenth = (value) => number(value, {minimumFractionDigits: 1, maximumFractionDigits: 1});
const percent = (value) => number(value, {style: "percent", maximumFractionDigits: 0});
const points = (value) => Math.round(value * 100);
const MEASURES = {
  cards_left: {
    of: (value) => value.cards_left, lowerIsBetter: true, key: "cards_left",
    format: (value) => number(value, {maximumFractionDigits: value >= 10 ? 0 : 1}),
    words: (value) => t("analysis.cards_left.words", {value: tenth(value)}), short: tenth,
    cost: (cost) => t("analysis.cards_left.cost", {value: tenth(cost)}), gain: (gain) => t("analysis.cards_left.gain", {value: tenth(gain)}),
  },
  win: {
    of: (value) => value.win, lowerIsBetter: false, key: "win",
    format: percent,
    words: (value) => t("analysis.win.words", {value: percent(value)}), short: percent,
    cost: (cost) => t("analysis.win.cost", {count: points(cost)}), gain: (gain) => t("analysis.win.gain", {count: points(gain)}),
  },
};
for (const measure of Object.values(MEASURES)) {
  Object.defineProperty(measure, "name", {get: () => t(`analysis.${measure.key}.name`)});
}

/** The panel in `root` for `replay`: `{gameId, game (its catalog name), table, name(seat), items (the move list's
 * items), jump(index), redraw()}`. Returns `show(at, board)` (the replay is at frame `at`: a note to read out with the
 * move) and `stop()`. Its style sheet comes with it. */
export function mountAnalysis(root, replay) {
  useStyle("/web/analysis.css");
  const analysis = new Analysis(root, replay);
  analysis.ask(`/v1/games/${encodeURIComponent(replay.gameId)}/analysis`, 0);
  return analysis;
}

class Analysis {
  constructor(root, replay) {
    Object.assign(this, {root, replay});
    this.status = h("p", {class: "analysis-status"}, t("analysis.asking"));
    this.progress = h("progress", {"aria-label": t("analysis.progress")});
    this.title = root.querySelector("h3"); // the panel's heading (replay.js): it stays above what this shows
    this.root.replaceChildren(this.title, this.status, this.progress);
    announce(t("analysis.asked"));
  }

  async ask(location, waited) {
    let answer;
    try {
      answer = await exchange("GET", location);
    } catch (error) {
      return this.failed(error, location);
    }
    if (this.stopped) return;
    if (answer.status === 200) return this.ready(answer.data);
    const {done, total} = answer.data;
    if (total) Object.assign(this.progress, {max: total, value: done});
    const wait = Math.min(Math.max(Number(answer.headers.get("Retry-After")) || 1, waited * BACKOFF), MOST_WAIT_S);
    this.status.textContent = [pendingWords(answer.data), t("analysis.leave"), t("analysis.asking_again", {count: Math.round(wait)})].join(" ");
    this.timer = setTimeout(() => this.ask(answer.headers.get("Location") || location, wait), wait * 1000);
  }

  /** A refusal: said, with "Ask again" when asking later may help (the network, a limit, a busy service); not for
   * a game the server will not analyse (409: not over yet, its day not over, slaps judged by time). */
  failed(error, location) {
    const text = t("analysis.none", {reason: refusal(error, this.replay.game)});
    this.status.textContent = text;
    this.status.classList.add("error");
    this.progress.remove();
    announce(text);
    if (error.status >= 400 && error.status < 500 && error.status !== 429) return;
    const again = h("button", {type: "button", onclick: () => {
      again.remove();
      this.status.classList.remove("error");
      this.status.textContent = t("analysis.asking");
      this.ask(location, 0);
    }}, t("analysis.ask_again"));
    this.root.append(again);
  }

  ready(data) {
    this.data = data;
    this.measure = MEASURES[data.measure] || MEASURES.win;
    this.decisionAt = []; // by frame: its decision (a frame is before its move, or inside its moves); none at the end
    data.decisions.forEach((decision, index) => {
      for (let frame = decision.start; frame < decision.end; frame += 1) this.decisionAt[frame] ??= index;
    });
    const costs = data.decisions.map((decision, index) => [decision.cost, index]).filter(([cost]) => cost > 0);
    this.flags = new Map(costs.sort((a, b) => b[0] - a[0]).slice(0, FLAGGED).map(([, index], rank) => [index, rank + 1]));
    this.now = h("div", {class: "analysis-now", "aria-label": t("analysis.now"), role: "group"});
    this.chart = this.buildChart();
    this.root.replaceChildren(...[this.title, this.summary(), this.now, this.chart.element, this.legend(), this.valuesTable()].filter(Boolean));
    this.annotate();
    announce(t("analysis.ready", {moves: t("analysis.moves_valued", {count: data.decisions.length}), flagged: this.flags.size}));
    this.replay.redraw();
  }

  show(frame, board) {
    if (!this.data) return "";
    const index = this.decisionAt[frame] ?? -1;
    this.chart.mark(index);
    if (index < 0) {
      this.now.replaceChildren(h("p", {}, t("analysis.the_end")));
      return "";
    }
    const decision = this.data.decisions[index];
    const start = frame === decision.start;
    const drawn = start && this.replay.table?.hint?.(board, decision.best, markBest) > 0;
    const best = decision.same ? t("analysis.same_as_made") : this.deeds(decision.best, decision.seat);
    this.now.replaceChildren(
      h("p", {class: "analysis-move"}, `${this.moves(decision)}, ${this.replay.name(decision.seat)}`, this.flagMark(index)),
      h("p", {}, h("strong", {}, t("analysis.played")), " ", this.deeds(decision.played, decision.seat)),
      h("p", {}, h("strong", {}, t("analysis.best")), " ", best, drawn ? ` ${t("analysis.marked")}` : "",
        start || decision.same ? "" : ` ${t("analysis.from_before", {moves: this.moves(decision)})}`),
      h("p", {}, this.worth(decision)));
    return start ? ` ${decision.same ? t("analysis.best_same") : t("analysis.best_was", {best, worth: this.worth(decision)})}` : "";
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  buildChart() {
    const {decisions} = this.data;
    const values = decisions.flatMap((each) => [this.measure.of(each.played_value), this.measure.of(each.best_value)]);
    const together = this.data.measure === "cards_left"; // The Game: one team, one line
    return valueChart({
      range: this.data.measure === "win" ? [0, 1] : [Math.max(0, Math.floor(Math.min(...values)) - 1), Math.ceil(Math.max(...values)) + 1],
      unit: this.measure,
      lowerIsBetter: this.measure.lowerIsBetter,
      label: t("analysis.chart_label", {measure: this.measure.name}),
      points: decisions.map((decision, index) => ({
        value: this.measure.of(decision.played_value), best: this.measure.of(decision.best_value),
        series: together ? 0 : decision.seat, flag: this.flags.get(index),
        label: `${this.moves(decision)}, ${this.replay.name(decision.seat)}: ${this.worth(decision)}`
          + (this.flags.has(index) ? `, ${t("analysis.costliest", {rank: this.flags.get(index)})}` : ""),
      })),
      onPick: (index) => this.replay.jump(decisions[index].start),
      room: this.root.clientWidth - 24, // the panel's padding
    });
  }

  legend() {
    if (this.data.measure === "cards_left") return null;
    return h("ul", {class: "chart-legend", "aria-label": t("analysis.lines")}, this.data.seats.map(({seat}) =>
      h("li", {}, h("span", {class: `swatch series-${seat % SERIES_COLOURS}`, "aria-hidden": "true"}), t("analysis.chance_of", {name: this.replay.name(seat)}))));
  }

  summary() {
    return h("ul", {class: "analysis-seats"}, this.data.seats.map((each) => h("li", {},
      t("analysis.seat_summary", {name: this.replay.name(each.seat), same: each.same, count: each.decisions,
        cost: each.cost > 0 ? this.measure.cost(each.cost) : t("analysis.no_cost_at_all")}))));
  }

  /** Every decision's values as a table: the chart's text alternative, each move a link into the replay. */
  valuesTable() {
    const rows = this.data.decisions.map((decision, index) => h("tr", {},
      h("th", {scope: "row"}, h("button", {type: "button", class: "link-button",
        onclick: () => this.replay.jump(decision.start)}, this.moves(decision))),
      h("td", {}, this.replay.name(decision.seat)),
      h("td", {}, this.measure.short(this.measure.of(decision.played_value))),
      h("td", {}, this.measure.short(this.measure.of(decision.best_value))),
      h("td", {}, decision.same ? t("analysis.same") : `${decision.cost > 0 ? "+" : ""}${this.measure.short(decision.cost)}`),
      h("td", {}, this.flagMark(index))));
    const columns = ["move", "who", "made", "best", "cost", "flag"].map((column) => t(`analysis.columns.${column}`, {measure: this.measure.name}));
    return h("details", {class: "analysis-table"}, h("summary", {}, t("analysis.table_summary")),
      h("table", {}, h("caption", {}, t("analysis.table_caption"), " ", h("small", {}, t(`analysis.${this.measure.key}.cost_note`))),
        h("thead", {}, h("tr", {}, columns.map((title) => h("th", {scope: "col"}, title)))),
        h("tbody", {}, rows)));
  }

  /** Beside each move of the replay's move list (after a decision's last action): best's choice, the value, a flag. */
  annotate() {
    this.data.decisions.forEach((decision, index) => {
      const item = this.replay.items[decision.end - 1];
      item?.classList.toggle("costly", this.flags.has(index));
      item?.append(h("p", {class: "move-note"}, this.flagMark(index),
        decision.same ? `${t("analysis.as_best")} ` : `${t("analysis.best_deeds", {best: this.deeds(decision.best, decision.seat)})} `, this.worth(decision)));
    });
  }

  flagMark(index) {
    const rank = this.flags.get(index);
    return rank ? h("strong", {class: "flag"}, ` ${t("analysis.flag", {rank})} `) : null;
  }

  moves(decision) {
    return decision.end - decision.start > 1 ? t("analysis.moves_range", {from: decision.start + 1, to: decision.end})
      : t("analysis.move", {number: decision.end});
  }

  /** Actions in words without their seat's name ("played 6 on the first up pile"); no action: waiting. */
  deeds(actions, seat) {
    const names = (each) => this.replay.name(each);
    const words = actions.map((action) => this.replay.table?.describe?.({seat, ...action}, {name: ""}, names)?.trim() || action.type);
    return words.length ? words.join(", ") : t("analysis.wait");
  }

  worth(decision) {
    const {words} = this.measure;
    const made = words(this.measure.of(decision.played_value));
    if (decision.same) return t("analysis.value", {made});
    return t("analysis.value_against", {made, best: words(this.measure.of(decision.best_value)), cost: costWords(decision.cost, this.measure)});
  }
}

/** How far a pending analysis is, as the server says it (`202`'s body): its place in line (`queue_position`:
 * analyses ahead of it, 0 when being worked on), the moves valued (`done` of `total`) and the server's estimate of
 * the time left (`eta_s`). Only what the server said: no guess of the page's own. */
export function pendingWords({done, total, queue_position: ahead, eta_s: eta}) {
  const words = [];
  if (ahead > 0) words.push(t("analysis.in_line", {count: ahead}));
  words.push(total ? t("analysis.valuing", {done, count: total}) : t(ahead > 0 ? "analysis.waiting_turn" : "analysis.waiting_start"));
  if (typeof eta === "number") words.push(t("analysis.eta", {time: duration(eta)}));
  return words.join(" ");
}

/** A duration in words: seconds under two minutes, else minutes, else hours ("about 3 minutes"). */
function duration(seconds) {
  const [value, unit] = seconds < 120 ? [Math.max(1, Math.round(seconds)), "second"]
    : seconds < 7200 ? [Math.round(seconds / 60), "minute"] : [Math.round(seconds / 360) / 10, "hour"];
  return number(value, {style: "unit", unit, unitDisplay: "long"});
}

function costWords(cost, measure) {
  if (cost > 0) return t("analysis.cost", {cost: measure.cost(cost)});
  return cost < 0 ? t("analysis.better", {gain: measure.gain(-cost)}) : t("analysis.no_cost");
}
