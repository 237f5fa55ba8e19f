// The game page's views, drawn in order and paced: views that come in a burst (a bot's whole turn, one version per
// card) are drawn one by one, `pace()` ms apart, so that a person sees each card land; a view no newer than the one
// shown or queued is dropped (except the one that brings a rematch); further behind than `most` views, the page skips
// to the newest. Each draw is measured from the view's arrival (`performance.measure`, read by bench/web_page.py).

export class Pacing {
  /** `draw(view)` draws a view; `shown()` is the view drawn last (or none); `pace()` the ms between two draws. */
  constructor({draw, shown, pace, most = 12}) {
    Object.assign(this, {draw, shown, pace, most});
    this.queue = [];
    this.timer = null;
  }

  /** Whether views wait their turn to be drawn: the page acts on what the newest will show, not before. */
  get waiting() {
    return this.queue.length > 0;
  }

  /** A view from the stream or an answer: drawn now, or after the views queued before it; `now` (the seat's own
   * move) draws it at once when nothing waits. */
  offer(view, {now = false} = {}) {
    const last = this.queue.at(-1)?.view || this.shown();
    if (last && view.version <= last.version && !(view.rematch && !last.rematch)) return;
    if (!this.queue.length && now) this.clearTimer();
    this.queue.push({view, at: performance.now(), paced: this.timer !== null}); // paced: waits for the one shown
    if (this.queue.length > this.most) this.queue.splice(0, this.queue.length - 1);
    if (this.timer === null) this.next();
  }

  next() {
    this.timer = null;
    const item = this.queue.shift();
    if (!item || this.stopped) return;
    this.draw(item.view);
    performance.measure(item.paced ? "view drawn, paced" : "view drawn", {start: item.at});
    this.timer = setTimeout(() => this.next(), this.pace()); // the next view waits its turn
  }

  /** Forget the views waiting (another seat's stream starts over). */
  clear() {
    this.clearTimer();
    this.queue = [];
  }

  stop() {
    this.stopped = true;
    this.clear();
  }

  clearTimer() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}
