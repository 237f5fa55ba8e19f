// A game's page: its table, drawn from each view of its event stream, with the seats, whose turn it is, the clock,
// the connection's state, the moves so far, and what a person may do here (take a seat, seat bots and start as the
// host, play, leave, ask for a rematch, open the replay). The server owns the state: the page never moves a card
// before the server's view says so. This is the controller (the stream, the pacing, the actions, the tokens held);
// the parts it shows are drawn by game-parts.js, the table by its game's module.

import {announce} from "./announce.js";
import {ApiError, call, get, randomKey} from "./api.js";
import {calm, h, keepFocus} from "./dom.js";
import {gameWords, refusal, t, when} from "./i18n.js";
import {button, clockText, guide, head, isOver, linkField, outcome, seats, todo} from "./game-parts.js";
import {Live} from "./live.js";
import {Pacing} from "./pacing.js";
import {today} from "./daily.js";
import * as storage from "./storage.js";
import {TABLES, tableReady} from "./tables/index.js";
import {TableRatings} from "./ratings.js";
import {seatName} from "./words.js";

const PACE_MS = 250; // views that come in a burst (bots answering at once) are drawn one by one, at least this far apart
const CALM_PACE_MS = 100;
const FALLBACK_MS = 1500; // an action's own answer is drawn if the stream has not brought that version by then
const HAPPENED_MS = 3000; // what just happened stays over the table this long (a newer event replaces it)
const connection = (state) => t(`game.connection.${state}`);

/** Mount the page of `gameId` in `root`; returns a function that unmounts it. */
export function mountGame(root, {gameId, catalog, go, askName}) {
  const page = new GamePage(root, gameId, catalog, go, askName);
  page.start();
  return () => page.stop();
}

class GamePage {
  constructor(root, gameId, catalog, go, askName) {
    Object.assign(this, {root, gameId, catalog, go, askName});
    this.ratings = new TableRatings(() => this.view && this.drawSeats());
    this.pacing = new Pacing({draw: (view) => this.draw(view), shown: () => this.view,
      pace: () => (calm() ? CALM_PACE_MS : PACE_MS)});
    this.entries = [];
    this.error = "";
    this.parts = {
      head: h("div", {class: "game-head"}),
      todo: h("p", {class: "todo", id: "todo"}),
      seats: h("ul", {class: "seats", "aria-label": t("game.seats")}),
      table: h("div", {class: "table", id: "table"}),
      error: h("p", {class: "error"}),
      controls: h("div", {class: "controls"}),
      outcome: h("div", {class: "outcome"}),
      moves: h("ol", {class: "moves", reversed: true, "aria-label": t("game.moves_label")}),
      share: h("div", {class: "share"}),
      happened: h("p", {class: "happened", hidden: true}),
      guide: h("div", {class: "guide-place"}),
    };
    this.connection = h("span", {class: "connection"}, connection("connecting"));
    root.replaceChildren(h("section", {class: "game", "aria-label": t("game.label")},
      this.parts.head, h("div", {class: "status-line"}, this.connection, this.parts.todo),
      h("div", {class: "board"}, this.parts.seats, h("div", {class: "table-place"}, this.parts.happened, this.parts.table)),
      this.parts.error, this.parts.controls, this.parts.guide,
      this.parts.outcome, h("details", {class: "log", open: true}, h("summary", {}, t("game.moves")), this.parts.moves),
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
      const view = await this.read();
      await tableReady(view.game); // its style sheet first: the table never shows unstyled
      this.offer(view);
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
          announce(t("game.connection_said", {state: connection(state)}));
        }
        this.connection.textContent = connection(state);
        this.connection.className = `connection ${state}`;
      },
    });
  }

  stop() {
    this.stopped = true;
    this.table?.unmount?.(this.parts.table);
    this.live?.close();
    clearInterval(this.ticker);
    this.pacing.stop();
    clearTimeout(this.happenedTimer);
  }

  /** A view from the stream or an answer: drawn now, or after the views queued before it (the seat's own moves
   * show at once). */
  offer(view) {
    this.pacing.offer(view, {now: this.myMove()});
  }

  myMove() {
    const view = this.view;
    return Boolean(view) && view.seat !== undefined && view.waiting_for.includes(view.seat);
  }

  draw(view) {
    const before = this.view;
    this.view = view;
    this.game = this.catalog.find((entry) => entry.name === view.game);
    this.table = TABLES[view.game];
    this.ratings.follow(view);
    const ctx = {send: (action) => this.send(action), name: (seat) => this.name(seat), game: this.game};
    this.receivedAt = performance.now();
    this.drawHead();
    this.drawSeats();
    keepFocus(this.parts.table, () => (this.table ? this.table.render(this.parts.table, view, ctx) : this.generic(view)));
    this.parts.table.dataset.version = String(view.version);
    this.parts.table.dataset.status = view.status;
    this.drawTodo(before);
    this.drawHappened(before);
    keepFocus(this.parts.controls, () => this.drawControls());
    this.drawOutcome();
    this.drawShare();
    this.drawGuide();
    this.remember(view);
    if (!before && (document.activeElement === document.body || !document.activeElement)) {
      this.parts.head.querySelector("h2").focus(); // a new page: the keyboard starts at its heading, not the body
    }
    this.readLog();
    if (view.rematch) this.rematch(view);
  }

  /** Seat `seat`'s name; `context` "object" for a name inside a sentence ("Waiting for you"). */
  name(seat, context) {
    return seatName(this.view.game, this.view.seats, seat, this.view.seat, context);
  }

  /** What the lobby's "Your recent games" says of this game: which game, who else sits, how it ended. */
  remember(view) {
    const held = this.held;
    if (!held.seatToken && !held.hostToken) return;
    const seated = view.seats.map(({seat, name, bot, bot_name}) => ({seat, name, bot, bot_name}));
    const facts = {game: view.game, seats: seated, outcome: view.outcome || null};
    const known = {game: held.game, seats: held.seats, outcome: held.outcome || null};
    if (JSON.stringify(facts) !== JSON.stringify(known)) storage.hold(this.gameId, facts);
  }

  drawHead() {
    this.parts.head.replaceChildren(...head(this.view, this.gameId, Boolean(this.held.hostToken), this.ratings));
  }

  drawSeats() {
    const ctx = {name: (seat) => this.name(seat), table: this.table, receivedAt: this.receivedAt, ratings: this.ratings};
    this.parts.seats.replaceChildren(...seats(this.view, ctx));
  }

  tick() {
    for (const element of this.root.querySelectorAll(".clock[data-until]")) {
      const left = Math.max(0, (Number(element.dataset.until) - performance.now()) / 1000);
      element.lastChild.textContent = clockText(left);
    }
  }

  /** What the change from `before` meant, over the table for a moment, drawn with the table it explains. */
  drawHappened(before) {
    const text = before && before.version < this.view.version && before.status === "playing"
      ? this.table?.happened?.(before, this.view, (seat) => this.name(seat)) : null;
    if (!text) return;
    Object.assign(this.parts.happened, {textContent: text, hidden: false});
    this.happenedSaid = {text, version: this.view.version}; // read out with the moves that made it (drawMoves)
    this.parts.happened.dataset.version = String(this.view.version);
    clearTimeout(this.happenedTimer);
    this.happenedTimer = setTimeout(() => { this.parts.happened.hidden = true; }, HAPPENED_MS);
  }

  drawTodo(before) {
    const view = this.view;
    const text = todo(view, this.table, (seat, context) => this.name(seat, context));
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
      for (const seat of free) buttons.push(button(t("game.take_seat", {number: seat.seat + 1}), () => this.takeSeat(seat.seat), `take-${seat.seat}`));
    }
    if (held.hostToken && view.status === "lobby") {
      for (const seat of view.seats.filter((each) => each.name === null)) buttons.push(this.botPicker(seat.seat));
      for (const seat of view.seats.filter((each) => each.name !== null && each.seat !== view.seat)) {
        buttons.push(button(t("game.free", {number: seat.seat + 1}), () => this.freeSeat(seat.seat), `free-${seat.seat}`));
      }
      buttons.push(button(t("game.start"), () => this.act("POST", "start", {token: held.hostToken, body: {}}), "start",
        view.seats.some((seat) => seat.name === null), "primary"));
    }
    if (view.seat !== undefined && !isOver(view)) buttons.push(button(t("game.leave"), () => this.leave(), "leave"));
    const daily = held.daily?.split("/").at(-1); // a daily deal's day: no rematch, no replay before the day is over
    if (held.hostToken && isOver(view) && !view.rematch && !daily) buttons.push(button(t("game.rematch"), () => this.askRematch(), "rematch", false, "primary"));
    if (isOver(view) && daily && daily >= today()) {
      const opens = new Date(Date.parse(`${daily}T00:00:00Z`) + 24 * 3600 * 1000);
      buttons.push(h("p", {class: "help"}, t("game.replay_opens", {when: when(opens)})));
    } else if (isOver(view)) buttons.push(h("a", {class: "button", href: `#/replay/${this.gameId}`}, t("game.open_replay")));
    this.parts.controls.replaceChildren(...buttons);
  }

  botPicker(seat) {
    const bots = this.game?.bots || [];
    const about = (bot) => (bot ? gameWords(this.view.game, `bots.${bot}.about`) : ""); // the lobby's words for the level
    const help = h("small", {id: `bot-${seat}-about`}, about(bots[0]));
    const select = h("select", {"aria-label": t("game.bot_level", {number: seat + 1}), "aria-describedby": help.id,
      onchange: () => { help.textContent = about(select.value); }},
      bots.map((bot) => h("option", {value: bot}, gameWords(this.view.game, `bots.${bot}.name`))));
    return h("span", {class: "bot-picker"}, select,
      button(t("game.seat_bot", {number: seat + 1}), () => this.act("POST", "seats", {token: this.held.hostToken,
        body: {name: `${select.value} bot`, bot: select.value, seat}}), `bot-${seat}`), help);
  }

  drawOutcome() {
    this.parts.outcome.replaceChildren(...outcome(this.view, (seat) => this.name(seat), this.ratings));
  }

  /** A first game's guide, once per game page: the game in three steps, open until this browser has finished a
   * game of it (then a summary to open); the line above the table says what to do now. */
  drawGuide() {
    if (this.parts.guide.childElementCount) return;
    const game = this.view.game;
    const played = storage.recent(Infinity).some(([id, facts]) => id !== this.gameId && facts.game === game && facts.outcome);
    this.parts.guide.replaceChildren(guide(game, !played));
  }

  drawShare() {
    if (this.parts.share.childElementCount) return;
    const link = `${location.origin}${location.pathname}#/game/${this.gameId}`;
    const seatLink = h("div", {class: "seat-link"});
    this.parts.share.replaceChildren(...[
      linkField("game-link", t("game.link"), link),
      this.held.seatToken ? button(t("game.share_seat"), () => {
        if (!confirm(t("game.share_seat_confirm"))) return;
        const token = storage.held(this.gameId).seatToken;
        seatLink.replaceChildren(linkField("seat-link", t("game.seat_link"),
          `${location.origin}${location.pathname}#/seat/${this.gameId}/${token}`));
      }, "share-seat") : null,
      seatLink].filter(Boolean));
  }

  generic(view) {
    // A game without a table of its own yet: its legal actions as buttons.
    this.parts.table.replaceChildren(h("pre", {class: "raw"}, JSON.stringify({...view, legal_actions: undefined}, null, 1)),
      ...(view.legal_actions || []).map((action, index) => button(JSON.stringify(action), () => this.send(action), `raw-${index}`)));
  }

  /** Send one of the seat's actions (or a batch); a refusal shows the server's message. One action per view drawn:
   * a second one on the same view waits for the first's answer (a double click), but once the stream drew the view
   * the first made, the next may go before that answer comes back (a slap right after one's own flip). */
  async send(action) {
    if (this.sentOn === this.view.version || this.pacing.waiting) return; // or a newer view is on its way: act on it
    const sentOn = this.view.version;
    this.sentOn = sentOn;
    try {
      const body = Array.isArray(action) ? {actions: action} : action;
      const view = await call("POST", `/games/${this.gameId}/actions`, {token: this.held.seatToken, body, key: randomKey()});
      this.showError("");
      setTimeout(() => this.offer(view), FALLBACK_MS);
    } catch (error) {
      this.fail(error);
    } finally {
      if (this.sentOn === sentOn) this.sentOn = null;
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
    if (!confirm(t("game.free_confirm", {number: seat + 1}))) return;
    await this.act("DELETE", `seats/${seat}`, {token: this.held.hostToken});
  }

  async leave() {
    if (!confirm(t("game.leave_confirm"))) return;
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
    if (view.rematch.token || storage.held(next).hostToken || (view.seat !== undefined && storage.player())) {
      this.followed = true;
      this.go(`#/game/${next}`);
    } else this.parts.controls.append(h("a", {class: "button", href: `#/game/${next}`}, t("game.watch_rematch")));
  }

  async resubscribe() {
    this.live?.close(); // the old token's stream: a view it still brings must not stand for the new seat's
    this.pacing.clear();
    this.view = undefined;
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
      const who = {name: this.name(entry.seat), context: entry.seat === this.view.seat ? "you" : undefined};
      return this.table?.describe?.(entry, who, (seat) => this.name(seat), this.view.seat) || t("game.move_fallback", {...who, type: entry.type});
    };
    this.parts.moves.start = this.entries.length;
    this.parts.moves.replaceChildren(...this.entries.slice(-30).reverse().map((entry) =>
      h("li", {}, words(entry), entry.auto ? ` ${t("game.by_bot")}` : "")));
    const urgent = fresh.filter((entry) => this.table?.urgent?.(entry, fresh)).slice(-2); // a slap's result, say
    const others = fresh.filter((entry) => entry.seat !== this.view.seat && !urgent.includes(entry)).slice(-3);
    // what just happened, over the table, is read out first, with the moves that made it: once the log read holds
    // them (a read sent before the change comes back after it, without them)
    const reached = (this.entries.at(-1)?.version ?? -1) >= (this.happenedSaid?.version ?? Infinity);
    const said = reached ? [this.happenedSaid.text] : [];
    if (reached) this.happenedSaid = null;
    if (urgent.length) announce([...said, ...urgent.map(words)].join(". "), {assertive: true});
    if (others.length || (said.length && !urgent.length)) announce([...(urgent.length ? [] : said), ...others.map(words)].join(". "));
  }

  showError(text) {
    this.parts.error.textContent = text;
  }

  fail(error) {
    const text = refusal(error, this.view?.game);
    this.showError(text);
    announce(text, {assertive: true});
  }
}
