// A finished game's replay: every state from the deal to the end, every hand shown, stepped through forward and back,
// by jumps or by autoplay. The states come from the service (`/web/replays/<id>`, rebuilt by the rules from the
// replay record the log shows); the moves in words from the log. Shareable: `#/replay/<id>/<step>`. Its "Analysis"
// panel loads analysis.js (its chart, its table marks, its style sheet) only when asked for: a replay alone never
// loads them.

import {announce} from "./announce.js";
import {get} from "./api.js";
import {h, keepFocus} from "./dom.js";
import {TABLES} from "./tables/index.js";

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
    this.root.replaceChildren(h("p", {}, "Loading the replay…"));
    try {
      const [view, log, frames] = await Promise.all([
        get(`/games/${this.gameId}`), get(`/games/${this.gameId}/log`), this.frames()]);
      Object.assign(this, {view, entries: log.entries, frames: frames.frames});
    } catch (error) {
      this.root.replaceChildren(h("p", {class: "error"}, `No replay: ${error.message}`),
        h("a", {href: `#/game/${this.gameId}`}, "Back to the game"));
      return;
    }
    this.table = TABLES[this.view.game];
    this.game = this.catalog.find((entry) => entry.name === this.view.game);
    this.build();
    this.show(Math.min(Math.max(0, Number(step) || 0), this.frames.length - 1));
  }

  async frames() {
    const answer = await fetch(`/web/replays/${encodeURIComponent(this.gameId)}`);
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.message);
    return body;
  }

  build() {
    const last = this.frames.length - 1;
    this.board = h("div", {class: "table", id: "table"});
    this.caption = h("p", {class: "todo"});
    this.slider = h("input", {type: "range", id: "replay-step", min: 0, max: last, value: 0,
      oninput: () => this.show(Number(this.slider.value))});
    this.play = h("button", {type: "button", key: "autoplay", onclick: () => this.toggle()}, "Autoplay");
    const step = (text, label, to) => h("button", {type: "button", key: label, "aria-label": label, onclick: () => this.show(to())}, text);
    this.moves = h("ol", {class: "moves replay-moves", "aria-label": "Moves"}, this.entries.map((entry, index) =>
      h("li", {}, h("button", {type: "button", class: "link-button", onclick: () => this.show(index + 1)}, this.words(entry)))));
    this.root.replaceChildren(h("section", {class: "replay", "aria-label": "Replay"},
      h("div", {class: "game-head"}, h("h2", {}, `Replay: ${this.game?.title || this.view.game}`),
        h("span", {class: "game-id"}, `Game ${this.gameId}`)),
      this.caption, this.board,
      h("div", {class: "replay-controls", role: "group", "aria-label": "Replay controls"},
        step("⇤", "To the start", () => 0), step("◀", "Back one move", () => this.at - 1),
        step("▶", "Forward one move", () => this.at + 1), step("⇥", "To the end", () => last), this.play,
        h("label", {for: "replay-step"}, "Move "), this.slider),
      this.analysisPanel(),
      h("p", {}, h("a", {href: `#/game/${this.gameId}`}, "Back to the game")),
      h("details", {class: "log"}, h("summary", {}, "Every move"), this.moves)));
  }

  analysisPanel() {
    this.panel = h("section", {class: "analysis panel", "aria-labelledby": "analysis-title"},
      h("h3", {id: "analysis-title"}, "Analysis"),
      h("p", {}, "What the best bot would have done at each move, from what that seat could see, and what each move "
        + "was worth against its choice. The server works it out by playing the game on many times: allow a minute."),
      h("button", {type: "button", key: "analyse", onclick: () => this.analyse()}, "Analyse the moves"));
    return this.panel;
  }

  async analyse() {
    const button = this.panel.querySelector("button");
    button.disabled = true;
    let module;
    try {
      module = await import("./analysis.js");
    } catch (error) {
      this.panel.append(h("p", {class: "error"}, `The analysis cannot be shown: ${error.message}`));
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
    const name = this.name(entry.seat);
    return this.table?.describe?.(entry, name, (seat) => this.name(seat)) || `${name}: ${entry.type}`;
  }

  name(seat) {
    const entry = this.view.seats[seat];
    return entry?.name || `Seat ${seat + 1}`;
  }

  show(index, {quiet = false} = {}) {
    const last = this.frames.length - 1;
    this.at = Math.min(Math.max(0, index), last);
    const frame = {...this.frames[this.at], seats: this.frames[this.at].seats.map((seat, n) => ({...this.view.seats[n], ...seat}))};
    const ctx = {send: () => {}, name: (seat) => this.name(seat)};
    let note = "";
    keepFocus(this.board, () => {
      this.table?.render(this.board, frame, ctx);
      note = this.analysis?.show(this.at, this.board) || "";
    });
    const done = this.at === last ? ` The end: ${this.view.outcome ? outcomeText(this.view, this) : this.view.status}.` : "";
    const move = this.at === 0 ? "The deal." : `Move ${this.at} of ${last}: ${this.words(this.entries[this.at - 1])}.`;
    this.caption.textContent = move + done;
    if (!this.timer && !quiet) announce(move + done + note); // autoplay speaks for itself on the table; steps are read out
    this.slider.value = String(this.at);
    history.replaceState(null, "", `#/replay/${this.gameId}/${this.at}`);
    if (this.at === last) this.pause();
  }

  toggle() {
    if (this.timer) return this.pause();
    if (this.at === this.frames.length - 1) this.show(0);
    this.play.textContent = "Pause";
    this.timer = setInterval(() => this.show(this.at + 1), AUTOPLAY_MS);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    if (this.play) this.play.textContent = "Autoplay";
  }

  stop() {
    this.pause();
    this.analysis?.stop();
  }
}

function outcomeText(view, names) {
  const outcome = view.outcome;
  if (outcome.winner !== null && outcome.winner !== undefined) return `${names.name(outcome.winner)} won`;
  return `${outcome.status}${view.score !== undefined ? `, score ${view.score}` : ""}`;
}
