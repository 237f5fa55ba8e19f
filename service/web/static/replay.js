// A finished game's replay: every state from the deal to the end, every hand shown, stepped through forward and back,
// by jumps or by autoplay. The states come from the service (`/web/replays/<id>`, rebuilt by the rules from the
// replay record the log shows); the moves in words from the log. Shareable: `#/replay/<id>/<step>`. Its "Analysis"
// panel loads analysis.js (its chart, its table marks, its style sheet) only when asked for: a replay alone never
// loads them.

import {announce} from "./announce.js";
import {get} from "./api.js";
import {h, keepFocus} from "./dom.js";
import {refusal, t} from "./i18n.js";
import {TABLES, tableReady} from "./tables/index.js";
import * as storage from "./storage.js";
import {outcomeWords, seatName} from "./words.js";

const AUTOPLAY_MS = 700;

export function mountReplay(root, {gameId, step, catalog}) {
  const replay = new Replay(root, gameId, catalog);
  replay.start(step);
  return () => replay.stop();
}

class Replay {
  constructor(root, gameId, catalog) {
    Object.assign(this, {root, gameId, catalog});
  }

  async start(step) {
    this.root.replaceChildren(h("p", {}, t("replay.loading")));
    try {
      const [view, log, frames] = await Promise.all([
        get(`/games/${this.gameId}`), get(`/games/${this.gameId}/log`), this.frames()]);
      Object.assign(this, {view, entries: log.entries, frames: frames.frames});
      await tableReady(view.game);
    } catch (error) {
      this.root.replaceChildren(h("p", {class: "error"}, t("replay.none", {reason: refusal(error)})),
        h("a", {href: `#/game/${this.gameId}`}, t("replay.back")));
      return;
    }
    this.table = TABLES[this.view.game];
    this.game = this.catalog.find((entry) => entry.name === this.view.game);
    this.build();
    this.show(Math.min(Math.max(0, Number(step) || 0), this.frames.length - 1));
    if (storage.held(this.gameId).analysis) this.analyse(); // asked for before: picked up again where it is
  }

  async frames() {
    const answer = await fetch(`/web/replays/${encodeURIComponent(this.gameId)}`);
    const body = await answer.json();
    if (!answer.ok) throw Object.assign(new Error(body.message), {status: answer.status, code: body.error});
    return body;
  }

  build() {
    const last = this.frames.length - 1;
    this.board = h("div", {class: "table", id: "table"});
    this.caption = h("p", {class: "todo"});
    this.slider = h("input", {type: "range", id: "replay-step", min: 0, max: last, value: 0,
      oninput: () => this.show(Number(this.slider.value))});
    this.play = h("button", {type: "button", key: "autoplay", onclick: () => this.toggle()}, t("replay.autoplay"));
    const step = (text, label, to) => h("button", {type: "button", key: label, "aria-label": label, onclick: () => this.show(to())}, text);
    this.moves = h("ol", {class: "moves replay-moves", "aria-label": t("game.moves")}, this.entries.map((entry, index) =>
      h("li", {}, h("button", {type: "button", class: "link-button", onclick: () => this.show(index + 1)}, this.words(entry)))));
    this.root.replaceChildren(h("section", {class: "replay", "aria-label": t("replay.label")},
      h("div", {class: "game-head"}, h("h2", {}, t("replay.title", {game: t(`games:${this.view.game}.title`)})),
        h("span", {class: "game-id"}, t("game.id", {id: this.gameId}))),
      this.caption, this.board,
      h("div", {class: "replay-controls", role: "group", "aria-label": t("replay.controls")},
        step("⇤", t("replay.start"), () => 0), step("◀", t("replay.step_back"), () => this.at - 1),
        step("▶", t("replay.step_forward"), () => this.at + 1), step("⇥", t("replay.end"), () => last), this.play,
        h("label", {for: "replay-step"}, t("replay.move"), " "), this.slider),
      this.analysisPanel(),
      h("p", {}, h("a", {href: `#/game/${this.gameId}`}, t("replay.back"))),
      h("details", {class: "log"}, h("summary", {}, t("replay.every_move")), this.moves)));
  }

  analysisPanel() {
    this.panel = h("section", {class: "analysis panel", "aria-labelledby": "analysis-title"},
      h("h3", {id: "analysis-title"}, t("analysis.title")),
      h("p", {}, t("analysis.about")),
      h("button", {type: "button", key: "analyse", onclick: () => this.analyse()}, t("analysis.ask")));
    return this.panel;
  }

  async analyse() {
    const button = this.panel.querySelector("button");
    button.disabled = true;
    storage.hold(this.gameId, {analysis: true}); // the person may leave: this replay asks again when reopened
    let module;
    try {
      module = await import("./analysis.js");
    } catch (error) {
      this.panel.append(h("p", {class: "error"}, t("analysis.unloadable", {reason: error.message})));
      button.disabled = false;
      return;
    }
    if (!this.panel.isConnected) return; // the replay was left meanwhile
    this.analysis = module.mountAnalysis(this.panel, {
      gameId: this.gameId, game: this.view.game, table: this.table, name: (seat) => this.name(seat), items: [...this.moves.children],
      jump: (index) => this.show(index), redraw: () => this.show(this.at, {quiet: true}),
    });
  }

  words(entry) {
    const who = {name: this.name(entry.seat)};
    return this.table?.describe?.(entry, who, (seat) => this.name(seat)) || t("game.move_fallback", {...who, type: entry.type});
  }

  name(seat) {
    return seatName(this.view.game, this.view.seats, seat);
  }

  show(index, {quiet = false} = {}) {
    const last = this.frames.length - 1;
    this.at = Math.min(Math.max(0, index), last);
    const frame = {...this.frames[this.at], seats: this.frames[this.at].seats.map((seat, n) => ({...this.view.seats[n], ...seat}))};
    const ctx = {send: () => {}, name: (seat) => this.name(seat), game: this.game};
    let note = "";
    keepFocus(this.board, () => {
      this.table?.render(this.board, frame, ctx);
      note = this.analysis?.show(this.at, this.board) || "";
    });
    const done = this.at === last && this.view.outcome ? ` ${t("replay.the_end", {outcome: this.outcomeText()})}` : "";
    const move = this.at === 0 ? t("replay.deal") : t("replay.move_of", {number: this.at, last, words: this.words(this.entries[this.at - 1])});
    this.caption.textContent = move + done;
    if (!this.timer && !quiet) announce(move + done + note); // autoplay speaks for itself on the table; steps are read out
    this.slider.value = String(this.at);
    history.replaceState(null, "", `#/replay/${this.gameId}/${this.at}`);
    if (this.at === last) this.pause();
  }

  toggle() {
    if (this.timer) return this.pause();
    if (this.at === this.frames.length - 1) this.show(0);
    this.play.textContent = t("replay.pause");
    this.timer = setInterval(() => this.show(this.at + 1), AUTOPLAY_MS);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.play) this.play.textContent = t("replay.autoplay");
  }

  /** The end in words: who won, or the team's result and score. */
  outcomeText() {
    const {headline} = outcomeWords({...this.view, seat: undefined}, (seat) => this.name(seat));
    return this.view.score === undefined ? headline : t("replay.with_score", {headline, score: this.view.score});
  }

  stop() {
    this.pause();
    this.table?.unmount?.(this.board);
    this.analysis?.stop();
  }
}
