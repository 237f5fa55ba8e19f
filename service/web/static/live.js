// A game's event stream (EventSource, or a KeyStream for this browser's player key when no token is given): one view
// per version, reconnecting by itself, with a visible state.
// EventSource retries on its own after a network error (`retry: 1000` from the server); when the server refuses the
// stream (an error status, 204 after the end) it stops, and this retries later, sooner when the page regains focus
// or the network comes back; a finished game's stream is not reopened.
// Each event's id is `<version>.<nonce>`. After Redis lost writes (a crash, a failover) the stream sends the game as it
// now stands, at a version no higher than one already shown but with another id: the page then loads again, since it
// draws only newer versions and the state it shows never happened.

import * as storage from "./storage.js";
import {KeyStream} from "./stream.js";

const BACKOFF_MS = [1000, 2000, 5000, 10000, 15000];

export class Live {
  /** Follow `gameId` with `token` (else the player key: its seat's view; else none: the public view); `onView(view)` per event, `onState(state)` on each
   * change of "connecting" | "live" | "reconnecting" | "ended". */
  constructor(gameId, token, {onView, onState}) {
    this.url = `/v1/games/${encodeURIComponent(gameId)}/events` + (token ? `?token=${encodeURIComponent(token)}` : "");
    this.key = token ? null : storage.player()?.key;
    this.onView = onView;
    this.onState = onState;
    this.failures = 0;
    this.over = false;
    this.wake = () => this.reopenIfClosed();
    for (const name of ["focus", "online"]) window.addEventListener(name, this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.open("connecting");
  }

  open(state) {
    this.setState(state);
    this.source = this.key ? new KeyStream(this.url, this.key) : new EventSource(this.url);
    this.source.addEventListener("open", () => {
      this.failures = 0;
      this.setState("live");
    });
    this.source.addEventListener("view", (message) => {
      const {version, view} = JSON.parse(message.data);
      if (this.lostFuture(version, message.lastEventId)) return window.location.reload();
      this.over = !["lobby", "playing"].includes(view.status);
      this.onView(view);
    });
    this.source.addEventListener("error", () => this.lost());
  }

  /** Whether this event names another state at a version no higher than the last one shown (a lost future). */
  lostFuture(version, id) {
    const last = this.last;
    this.last = {version, id};
    return Boolean(last) && (version < last.version || (version === last.version && id !== last.id));
  }

  lost() {
    if (this.source.readyState === EventSource.CONNECTING) return this.setState("reconnecting");
    this.source.close();
    if (this.over) return this.setState("ended");
    this.setState("reconnecting");
    const delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
    this.failures += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reopenIfClosed(), delay);
  }

  reopenIfClosed() {
    if (this.stopped || this.over || document.visibilityState === "hidden") return;
    if (this.source.readyState === EventSource.CLOSED) this.open("reconnecting");
  }

  setState(state) {
    if (state !== this.state) this.onState((this.state = state));
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.source.close();
    for (const name of ["focus", "online"]) window.removeEventListener(name, this.wake);
    document.removeEventListener("visibilitychange", this.wake);
  }
}
