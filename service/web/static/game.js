// A game's page: its table, drawn from each view of its event stream, with the seats, whose turn it is, the clock,
// the connection's state, the moves so far, and what a person may do here (take a seat, seat bots and start as the
// host, play, leave, ask for a rematch, open the replay). The server owns the state: the page never moves a card
// before the server's view says so.

import {announce} from "./announce.js";
import {ApiError, call, get, randomKey} from "./api.js";
import {calm, h, keepFocus} from "./dom.js";
import {icon} from "./icons.js";
import {Live} from "./live.js";
import * as storage from "./storage.js";
import {TABLES} from "./tables/index.js";

const PACE_MS = 250; // views that come in a burst (bots answering at once) are drawn one by one, at least this far apart
const CALM_PACE_MS = 100;
const MAX_QUEUE = 12; // further behind than this, skip to the newest view
const FALLBACK_MS = 1500; // an action's own answer is drawn if the stream has not brought that version by then
const CONNECTION = {connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…", ended: "Game over: stream closed"};

function isOver(view) {
  return !["lobby", "playing"].includes(view.status);
}

/** Mount the page of `gameId` in `root`; returns a function that unmounts it. */
export function mountGame(root, {gameId, catalog, go, askName}) {
  const page = new GamePage(root, gameId, catalog, go, askName);
  page.start();
  return () => page.stop();
}

class GamePage {
  constructor(root, gameId, catalog, go, askName) {
    Object.assign(this, {root, gameId, catalog, go, askName});
    this.queue = [];
    this.entries = [];
    this.error = "";
    this.parts = {
      head: h("div", {class: "game-head"}),
      todo: h("p", {class: "todo", id: "todo"}),
      seats: h("ul", {class: "seats", "aria-label": "Seats"}),
      table: h("div", {class: "table", id: "table"}),
      error: h("p", {class: "error"}),
      controls: h("div", {class: "controls"}),
      outcome: h("div", {class: "outcome"}),
      moves: h("ol", {class: "moves", reversed: true, "aria-label": "Moves so far, newest first"}),
      share: h("div", {class: "share"}),
    };
    this.connection = h("span", {class: "connection"}, CONNECTION.connecting);
    root.replaceChildren(h("section", {class: "game", "aria-label": "Game"},
      this.parts.head, h("div", {class: "status-line"}, this.connection, this.parts.todo),
      h("div", {class: "board"}, this.parts.seats, this.parts.table), this.parts.error, this.parts.controls,
      this.parts.outcome, h("details", {class: "log", open: true}, h("summary", {}, "Moves"), this.parts.moves),
      this.parts.share));
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  get held() {
    return storage.held(this.gameId);
  }

  /** The token this page reads with: the seat's, else the host's (which sees the public view), else none. */
  get token() {
    return this.held.seatToken || this.held.hostToken;
  }

  async start() {
    try {
      this.offer(await this.read());
    } catch (error) {
      this.fail(error);
      return;
    }
    this.follow();
  }

  async read() {
    try {
      return await get(`/games/${this.gameId}`, this.token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "invalid_token") throw error;
      storage.hold(this.gameId, {seatToken: null, seat: null}); // the seat was left or taken over: watch instead
      return get(`/games/${this.gameId}`, this.token);
    }
  }

  follow() {
    this.live?.close();
    this.live = new Live(this.gameId, this.token, {
      onView: (view) => this.offer(view),
      onState: (state) => {
        if (state === "reconnecting" || (state === "live" && this.connection.classList.contains("reconnecting"))) {
          announce(`Connection: ${CONNECTION[state]}`);
        }
        this.connection.textContent = CONNECTION[state];
        this.connection.className = `connection ${state}`;
      },
    });
  }

  stop() {
    this.stopped = true;
    this.live?.close();
    clearInterval(this.ticker);
    clearTimeout(this.pacer);
  }

  /** A view from the stream or an answer: drawn now, or after the views queued before it. */
  offer(view) {
    const last = this.queue.at(-1)?.view || this.view;
    if (last && view.version <= last.version && !(view.rematch && !last.rematch)) return;
    if (!this.queue.length && this.myMove()) { // the seat's own moves show at once
      clearTimeout(this.pacer);
      this.pacer = null;
    }
    this.queue.push({view, at: performance.now(), paced: Boolean(this.pacer)}); // paced: waits for the one shown
    if (this.queue.length > MAX_QUEUE) this.queue.splice(0, this.queue.length - 1);
    if (!this.pacer) this.next();
  }

  myMove() {
    const view = this.view;
    return Boolean(view) && view.seat !== undefined && view.waiting_for.includes(view.seat);
  }

  next() {
    this.pacer = null;
    const item = this.queue.shift();
    if (!item || this.stopped) return;
    this.draw(item.view);
    // from the view's arrival to its table drawn (bench/web_page.py reads it)
    performance.measure(item.paced ? "view drawn, paced" : "view drawn", {start: item.at});
    this.pacer = setTimeout(() => this.next(), calm() ? CALM_PACE_MS : PACE_MS); // the next view waits its turn
  }

  draw(view) {
    const before = this.view;
    this.view = view;
    this.game = this.catalog.find((entry) => entry.name === view.game);
    this.table = TABLES[view.game];
    const ctx = {send: (action) => this.send(action), name: (seat) => this.name(seat)};
    this.receivedAt = performance.now();
    this.drawHead();
    this.drawSeats();
    keepFocus(this.parts.table, () => (this.table ? this.table.render(this.parts.table, view, ctx) : this.generic(view)));
    this.parts.table.dataset.version = String(view.version);
    this.parts.table.dataset.status = view.status;
    this.drawTodo(before);
    keepFocus(this.parts.controls, () => this.drawControls());
    this.drawOutcome();
    this.drawShare();
    this.readLog();
    if (view.rematch) this.rematch(view);
  }

  name(seat) {
    if (this.view.seat === seat) return "You";
    const entry = this.view.seats[seat];
    return entry?.name || (entry?.bot ? `Bot (${entry.bot_name})` : `Seat ${seat + 1}`);
  }

  drawHead() {
    const title = this.game ? this.game.title : this.view.game;
    this.parts.head.replaceChildren(h("h2", {}, title), h("span", {class: "game-id"}, `Game ${this.gameId}`),
      this.view.seat !== undefined ? h("span", {class: "role"}, `You play seat ${this.view.seat + 1}`)
        : h("span", {class: "role"}, this.held.hostToken ? "You host this game" : "Watching"));
  }

  drawSeats() {
    const view = this.view;
    this.parts.seats.replaceChildren(...view.seats.map((seat) => {
      const turn = view.waiting_for.includes(seat.seat) && !isOver(view);
      const who = seat.name === null && !seat.bot ? "free seat" : seat.name === null ? `open seat, ${this.name(seat.seat)} plays it` : this.name(seat.seat);
      const facts = this.table?.seatFacts?.(seat);
      const clock = seat.seconds_left !== null && seat.seconds_left !== undefined
        ? h("span", {class: "clock", "data-until": String(this.receivedAt + seat.seconds_left * 1000)}, icon("clock"), clockText(seat.seconds_left)) : null;
      return h("li", {class: ["seat", turn && "turn", seat.seat === view.seat && "me"], "aria-current": turn ? "true" : null},
        h("span", {class: "who"}, `${seat.seat + 1}. ${who}`),
        seat.bot && seat.name !== null ? h("span", {class: "badge"}, icon("bot"), seat.bot_name) : null,
        seat.autoplay ? h("span", {class: "badge"}, "a bot plays for them") : null,
        facts ? h("span", {class: "facts"}, facts) : null,
        turn ? h("span", {class: "turn-mark"}, "to play") : null, clock);
    }));
  }

  tick() {
    for (const element of this.root.querySelectorAll(".clock[data-until]")) {
      const left = Math.max(0, (Number(element.dataset.until) - performance.now()) / 1000);
      element.lastChild.textContent = clockText(left);
    }
  }

  drawTodo(before) {
    const view = this.view;
    let text;
    if (view.status === "lobby") text = view.seats.some((seat) => seat.name === null) ? "Waiting for players to take the free seats." : "Every seat is taken: the host may start.";
    else if (isOver(view)) text = "The game is over.";
    else text = this.table?.todo?.(view) || `Waiting for ${view.waiting_for.map((seat) => this.name(seat)).join(", ") || "the next move"}.`;
    this.parts.todo.textContent = text;
    const mine = (v) => v && v.seat !== undefined && v.status === "playing" && v.waiting_for.includes(v.seat);
    if (mine(view) && !mine(before)) announce(text, {assertive: true});
  }

  drawControls() {
    const view = this.view;
    const held = this.held;
    const buttons = [];
    const free = view.seats.filter((seat) => seat.name === null && (view.status === "lobby" || (view.status === "playing" && seat.bot)));
    if (view.seat === undefined) {
      for (const seat of free) buttons.push(button(`Take seat ${seat.seat + 1}`, () => this.takeSeat(seat.seat), `take-${seat.seat}`));
    }
    if (held.hostToken && view.status === "lobby") {
      for (const seat of view.seats.filter((each) => each.name === null)) buttons.push(this.botPicker(seat.seat));
      for (const seat of view.seats.filter((each) => each.name !== null && each.seat !== view.seat)) {
        buttons.push(button(`Free seat ${seat.seat + 1}`, () => this.freeSeat(seat.seat), `free-${seat.seat}`));
      }
      buttons.push(button("Start", () => this.act("POST", "start", {token: held.hostToken, body: {}}), "start",
        view.seats.some((seat) => seat.name === null), "primary"));
    }
    if (view.seat !== undefined && !isOver(view)) buttons.push(button("Leave the seat", () => this.leave(), "leave"));
    if (held.hostToken && isOver(view) && !view.rematch) buttons.push(button("Rematch", () => this.askRematch(), "rematch", false, "primary"));
    if (isOver(view)) buttons.push(h("a", {class: "button", href: `#/replay/${this.gameId}`}, "Open the replay"));
    this.parts.controls.replaceChildren(...buttons);
  }

  botPicker(seat) {
    const bots = this.game?.bots || [];
    const select = h("select", {"aria-label": `Bot level for seat ${seat + 1}`}, bots.map((bot) => h("option", {value: bot}, bot)));
    return h("span", {class: "bot-picker"}, select,
      button(`Seat a bot in seat ${seat + 1}`, () => this.act("POST", "seats", {token: this.held.hostToken,
        body: {name: `Bot ${seat + 1}`, bot: select.value, seat}}), `bot-${seat}`));
  }

  drawOutcome() {
    const view = this.view;
    if (!isOver(view) || !view.outcome) return this.parts.outcome.replaceChildren();
    const outcome = view.outcome;
    const reason = this.game?.outcome_reasons?.[outcome.reason] || outcome.reason;
    const ranking = outcome.ranking?.length
      ? h("ol", {class: "ranking", "aria-label": "Ranking"}, outcome.ranking.map((seat) => h("li", {}, this.name(seat)))) : null;
    const headline = outcome.winner !== null && outcome.winner !== undefined ? `${this.name(outcome.winner)} won` : `Game ${outcome.status}`;
    this.parts.outcome.replaceChildren(h("h3", {}, headline), h("p", {}, reason),
      view.score !== undefined ? h("p", {}, `Score: ${view.score}`) : null, ranking);
  }

  drawShare() {
    if (this.parts.share.childElementCount) return;
    const link = `${location.origin}${location.pathname}#/game/${this.gameId}`;
    const seatLink = h("p", {class: "seat-link"});
    this.parts.share.replaceChildren(
      h("label", {}, "Link to this game (to watch, or to take a free seat) ",
        h("input", {readonly: true, value: link, class: "link", onfocus: (event) => event.target.select()})),
      this.held.seatToken ? button("Share my seat…", () => {
        if (!confirm("Whoever opens this link plays your seat. Share it only with yourself (another device) or someone you trust.")) return;
        const token = storage.held(this.gameId).seatToken;
        seatLink.replaceChildren(h("label", {}, "Link to your seat (keep it private) ",
          h("input", {readonly: true, class: "link", value: `${location.origin}${location.pathname}#/seat/${this.gameId}/${token}`})));
      }, "share-seat") : null,
      seatLink);
  }

  generic(view) {
    // A game without a table of its own yet: its legal actions as buttons.
    this.parts.table.replaceChildren(h("pre", {class: "raw"}, JSON.stringify({...view, legal_actions: undefined}, null, 1)),
      ...(view.legal_actions || []).map((action, index) => button(JSON.stringify(action), () => this.send(action), `raw-${index}`)));
  }

  /** Send one of the seat's actions (or a batch); a refusal shows the server's message. */
  async send(action) {
    if (this.pending || this.queue.length) return; // a newer view is on its way: act on what it shows
    this.pending = true;
    try {
      const body = Array.isArray(action) ? {actions: action} : action;
      const view = await call("POST", `/games/${this.gameId}/actions`, {token: this.held.seatToken, body, key: randomKey()});
      this.showError("");
      setTimeout(() => this.offer(view), FALLBACK_MS);
    } catch (error) {
      this.fail(error);
    } finally {
      this.pending = false;
    }
  }

  async act(method, path, {token, body, key} = {}) {
    try {
      const answer = await call(method, `/games/${this.gameId}/${path}`, {token, body, key: key || randomKey()});
      this.showError("");
      return answer;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  async takeSeat(seat) {
    const name = this.askName();
    if (!name) return;
    const taken = await this.act("POST", "seats", {body: {name, seat}});
    if (!taken) return;
    storage.hold(this.gameId, {seatToken: taken.token, seat: taken.seat});
    this.resubscribe();
  }

  async freeSeat(seat) {
    if (!confirm(`Free seat ${seat + 1}? Whoever sits there loses it.`)) return;
    await this.act("DELETE", `seats/${seat}`, {token: this.held.hostToken});
  }

  async leave() {
    if (!confirm("Leave your seat? A bot plays it from now on, and you watch.")) return;
    const left = await this.act("DELETE", `seats/${this.view.seat}`, {token: this.held.seatToken});
    if (left === undefined) return;
    storage.hold(this.gameId, {seatToken: null, seat: null});
    this.resubscribe();
  }

  async askRematch() {
    const next = await this.act("POST", "rematch", {token: this.held.hostToken});
    if (!next) return;
    storage.hold(next.game_id, {hostToken: next.host_token});
    // the host's own seat learns its new token from its view of this game, as every seat does
    const seatToken = this.held.seatToken;
    this.rematch(seatToken ? await get(`/games/${this.gameId}`, seatToken) : {rematch: {game_id: next.game_id}});
  }

  rematch(view) {
    if (this.followed) return;
    const next = view.rematch.game_id;
    if (view.rematch.token) storage.hold(next, {seatToken: view.rematch.token, seat: view.seat});
    if (view.rematch.token || storage.held(next).hostToken) {
      this.followed = true;
      this.go(`#/game/${next}`);
    } else this.parts.controls.append(h("a", {class: "button", href: `#/game/${next}`}, "Watch the rematch"));
  }

  async resubscribe() {
    this.view = undefined;
    this.queue = [];
    this.parts.share.replaceChildren();
    await this.start();
  }

  async readLog() {
    if (this.view.status === "lobby") return;
    if (this.readingLog) {
      this.readAgain = true;
      return;
    }
    this.readingLog = true;
    this.readAgain = false;
    try {
      const log = await get(`/games/${this.gameId}/log`, this.token);
      const fresh = log.entries.slice(this.entries.length);
      this.entries = log.entries;
      this.drawMoves(fresh);
    } catch {
      // the moves list is a help; the table is drawn from the views
    } finally {
      this.readingLog = false;
    }
    if (this.readAgain && !this.stopped) this.readLog();
  }

  drawMoves(fresh) {
    const words = (entry) => {
      const name = entry.seat === this.view.seat ? "You" : this.name(entry.seat);
      return this.table?.describe?.(entry, name, (seat) => this.name(seat)) || `${name}: ${entry.type}`;
    };
    this.parts.moves.start = this.entries.length;
    this.parts.moves.replaceChildren(...this.entries.slice(-30).reverse().map((entry) =>
      h("li", {}, words(entry), entry.auto ? " (for them, by a bot)" : "")));
    const urgent = fresh.filter((entry) => this.table?.urgent?.(entry, fresh)).slice(-2); // a slap's result, say
    const others = fresh.filter((entry) => entry.seat !== this.view.seat && !urgent.includes(entry)).slice(-3);
    if (others.length) announce(others.map(words).join(". "));
    if (urgent.length) announce(urgent.map(words).join(". "), {assertive: true});
  }

  showError(text) {
    this.parts.error.textContent = text;
  }

  fail(error) {
    const text = error instanceof ApiError ? `Refused: ${error.message}` : String(error);
    this.showError(text);
    announce(text, {assertive: true});
  }
}

function button(text, onclick, key, disabled = false, kind = "") {
  return h("button", {type: "button", class: kind, onclick, key, disabled}, text);
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
