// A finished game's analysis beside its replay, loaded by replay.js with `import()` when asked for (the first load
// carries none of it). `GET /v1/games/{id}/analysis` answers `202` while a process of the service works it out: the
// panel polls its `Location`, waiting longer each time, and says how far it is; then, for each decision (docs/api.md,
// "Analysis"), what `best` would have done (marked on the table by hints.js, and in words beside the move),
// the value of the move made against best's, the values as a chart over the game, and the costliest moves flagged.

import {announce} from "./announce.js";
import {exchange} from "./api.js";
import {h} from "./dom.js";
import {HINTS} from "./hints.js";
import {SERIES_COLOURS, valueChart} from "./value-chart.js";

const MOST_WAIT_S = 15; // between polls, however long the analysis takes
const BACKOFF = 1.5;
const FLAGGED = 3; // the costliest moves flagged

/** Measures by the analysis' `measure`: a value's number, how it reads, and a cost in words. */
const MEASURES = {
  cards_left: {
    of: (value) => value.cards_left, lowerIsBetter: true, name: "Cards left (expected)",
    format: (number) => number.toFixed(number >= 10 || Number.isInteger(number) ? 0 : 1),
    words: (number) => `${number.toFixed(1)} cards left`, short: (number) => number.toFixed(1),
    cost: (cost) => `${cost.toFixed(1)} more cards left`, gain: (gain) => `${gain.toFixed(1)} fewer cards left`,
  },
  win: {
    of: (value) => value.win, lowerIsBetter: false, name: "Chance to win",
    format: (number) => `${Math.round(number * 100)}%`,
    words: (number) => `${Math.round(number * 100)}% to win`, short: (number) => `${Math.round(number * 100)}%`,
    cost: (cost) => `${Math.round(cost * 100)} points less to win`, gain: (gain) => `${Math.round(gain * 100)} points more to win`,
  },
};

/** The panel in `root` for `replay`: `{gameId, game (its catalog name), table, name(seat), items (the move list's
 * items), jump(index), redraw()}`. Returns `show(at, board)` (the replay is at frame `at`: a note to read out with the
 * move) and `stop()`. Its style sheet comes with it. */
export function mountAnalysis(root, replay) {
  if (!document.querySelector("link[href='/web/analysis.css']")) {
    document.head.append(h("link", {rel: "stylesheet", href: "/web/analysis.css"}));
  }
  const analysis = new Analysis(root, replay);
  analysis.ask(`/v1/games/${encodeURIComponent(replay.gameId)}/analysis`, 0);
  return analysis;
}

class Analysis {
  constructor(root, replay) {
    Object.assign(this, {root, replay});
    this.status = h("p", {class: "analysis-status"}, "Asking the server for the analysis…");
    this.progress = h("progress", {"aria-label": "Moves valued"});
    this.title = root.querySelector("h3"); // the panel's heading (replay.js): it stays above what this shows
    this.root.replaceChildren(this.title, this.status, this.progress);
    announce("Analysis asked for: the server works it out.");
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
    this.status.textContent = (total ? `The server is valuing the moves: ${done} of ${total} done.`
      : "Waiting for the server to start on it.") + ` Asking again in ${Math.round(wait)} s.`;
    this.timer = setTimeout(() => this.ask(answer.headers.get("Location") || location, wait), wait * 1000);
  }

  /** A refusal: said, with "Ask again" when asking later may help (the network, a limit, a busy service); not for
   * a game the server will not analyse (409: not over yet, its day not over, slaps judged by time). */
  failed(error, location) {
    this.status.textContent = `No analysis: ${error.message}.`;
    this.status.classList.add("error");
    this.progress.remove();
    announce(`No analysis: ${error.message}.`);
    if (error.status >= 400 && error.status < 500 && error.status !== 429) return;
    const again = h("button", {type: "button", onclick: () => {
      again.remove();
      this.status.classList.remove("error");
      this.status.textContent = "Asking the server for the analysis…";
      this.ask(location, 0);
    }}, "Ask again");
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
    this.now = h("div", {class: "analysis-now", "aria-label": "This move against best's", role: "group"});
    this.chart = this.buildChart();
    this.root.replaceChildren(...[this.title, this.summary(), this.now, this.chart.element, this.legend(), this.valuesTable()].filter(Boolean));
    this.annotate();
    announce(`Analysis ready: ${data.decisions.length} moves valued, the ${this.flags.size} costliest flagged.`);
    this.replay.redraw();
  }

  show(frame, board) {
    if (!this.data) return "";
    const index = this.decisionAt[frame] ?? -1;
    this.chart.mark(index);
    if (index < 0) {
      this.now.replaceChildren(h("p", {}, "The end: no more moves."));
      return "";
    }
    const decision = this.data.decisions[index];
    const start = frame === decision.start;
    const drawn = start && HINTS[this.replay.game]?.(board, decision.best) > 0;
    const best = decision.same ? "the same as the move made" : this.deeds(decision.best, decision.seat);
    this.now.replaceChildren(
      h("p", {class: "analysis-move"}, `${this.moves(decision)}, ${this.replay.name(decision.seat)}`, this.flagMark(index)),
      h("p", {}, h("strong", {}, "Played: "), this.deeds(decision.played, decision.seat)),
      h("p", {}, h("strong", {}, "Best: "), best, drawn ? " (marked on the table)" : "",
        start || decision.same ? "" : ` (from the state before ${this.moves(decision).toLowerCase()})`),
      h("p", {}, this.worth(decision)));
    return start ? ` ${decision.same ? "Best would have done the same." : `Best: ${best}. ${this.worth(decision)}`}` : "";
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
      label: `${this.measure.name} for each move, against best's: a point per move, the costliest numbered (the same as the table "Every move's value")`,
      points: decisions.map((decision, index) => ({
        value: this.measure.of(decision.played_value), best: this.measure.of(decision.best_value),
        series: together ? 0 : decision.seat, flag: this.flags.get(index),
        label: `${this.moves(decision)}, ${this.replay.name(decision.seat)}: ${this.worth(decision)}${this.flags.has(index) ? `, costliest number ${this.flags.get(index)}` : ""}`,
      })),
      onPick: (index) => this.replay.jump(decisions[index].start),
      room: this.root.clientWidth - 24, // the panel's padding
    });
  }

  legend() {
    if (this.data.measure === "cards_left") return null;
    return h("ul", {class: "chart-legend", "aria-label": "Lines"}, this.data.seats.map(({seat}) =>
      h("li", {}, h("span", {class: `swatch series-${seat % SERIES_COLOURS}`, "aria-hidden": "true"}), `${this.replay.name(seat)}'s chance`)));
  }

  summary() {
    return h("ul", {class: "analysis-seats"}, this.data.seats.map((each) => h("li", {},
      `${this.replay.name(each.seat)}: ${each.same} of ${each.decisions} moves as best's; cost in all: `
      + `${each.cost > 0 ? this.measure.cost(each.cost) : "none"}.`)));
  }

  /** Every decision's values as a table: the chart's text alternative, each move a link into the replay. */
  valuesTable() {
    const rows = this.data.decisions.map((decision, index) => h("tr", {},
      h("th", {scope: "row"}, h("button", {type: "button", class: "link-button",
        onclick: () => this.replay.jump(decision.start)}, this.moves(decision))),
      h("td", {}, this.replay.name(decision.seat)),
      h("td", {}, this.measure.short(this.measure.of(decision.played_value))),
      h("td", {}, this.measure.short(this.measure.of(decision.best_value))),
      h("td", {}, decision.same ? "same" : `${decision.cost > 0 ? "+" : ""}${this.measure.short(decision.cost)}`),
      h("td", {}, this.flagMark(index))));
    return h("details", {class: "analysis-table"}, h("summary", {}, "Every move's value (the chart as a table)"),
      h("table", {}, h("caption", {}, "Every move's value",
        h("small", {}, ` (cost: how much worse than best's, ${this.data.measure === "win" ? "in chance to win" : "in cards left"}; below 0, better)`)),
        h("thead", {}, h("tr", {}, ["Move", "Who", `Move made: ${this.measure.name.toLowerCase()}`, "Best's", "Cost", "Flag"].map((title) => h("th", {scope: "col"}, title)))),
        h("tbody", {}, rows)));
  }

  /** Beside each move of the replay's move list (after a decision's last action): best's choice, the value, a flag. */
  annotate() {
    this.data.decisions.forEach((decision, index) => {
      const item = this.replay.items[decision.end - 1];
      item?.classList.toggle("costly", this.flags.has(index));
      item?.append(h("p", {class: "move-note"}, this.flagMark(index),
        decision.same ? "As best would have. " : `Best: ${this.deeds(decision.best, decision.seat)}. `, this.worth(decision)));
    });
  }

  flagMark(index) {
    const rank = this.flags.get(index);
    return rank ? h("strong", {class: "flag"}, ` Costliest #${rank} `) : null;
  }

  moves(decision) {
    return decision.end - decision.start > 1 ? `Moves ${decision.start + 1} to ${decision.end}` : `Move ${decision.end}`;
  }

  /** Actions in words without their seat's name ("played 6 on the first up pile"); no action: waiting. */
  deeds(actions, seat) {
    const names = (each) => this.replay.name(each);
    const words = actions.map((action) => this.replay.table?.describe?.({seat, ...action}, "", names)?.trim() || action.type);
    return words.length ? words.join(", ") : "wait (do nothing)";
  }

  worth(decision) {
    const {words} = this.measure;
    const made = words(this.measure.of(decision.played_value));
    if (decision.same) return `Value: ${made}.`;
    return `Value: ${made} for the move made, ${words(this.measure.of(decision.best_value))} for best's: `
      + `${costWords(decision.cost, this.measure)}.`;
  }
}

function costWords(cost, measure) {
  if (cost > 0) return `cost ${measure.cost(cost)}`;
  return cost < 0 ? `better than best's on these deals: ${measure.gain(-cost)}` : "no cost";
}
