// A game's event stream read with fetch(), for a player key: EventSource cannot send the Authorization header, and
// a key never goes in a URL (docs/api.md "Players"). It behaves as the EventSource that live.js drives: the same
// `readyState` values, "open", "error" and named events; after a network error or the stream's end it reconnects
// by itself (after the server's `retry:`) with `Last-Event-ID`, and an error status closes it.

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

export class KeyStream extends EventTarget {
  constructor(url, key) {
    super();
    Object.assign(this, {url, key, retry: 1000, lastEventId: null, readyState: CONNECTING});
    this.connect();
  }

  async connect() {
    this.aborter = new AbortController();
    const headers = {Authorization: `Bearer ${this.key}`, Accept: "text/event-stream"};
    if (this.lastEventId !== null) headers["Last-Event-ID"] = this.lastEventId;
    let answer;
    try {
      answer = await fetch(this.url, {headers, cache: "no-store", signal: this.aborter.signal});
    } catch {
      return this.dropped();
    }
    if (!answer.ok || answer.status === 204 || !answer.body) return this.stop();
    this.readyState = OPEN;
    this.dispatchEvent(new Event("open"));
    try {
      await this.read(answer.body.pipeThrough(new TextDecoderStream()).getReader());
    } catch {
      // cut, or closed here: dropped() tells which
    }
    return this.dropped();
  }

  async read(reader) {
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      const blocks = (buffer + value).replace(/\r\n?/g, "\n").split("\n\n");
      buffer = blocks.pop();
      for (const block of blocks) this.dispatch(block);
    }
  }

  /** One event's lines (`event:`, `data:`, `id:`, `retry:`; `:` starts a comment) as a MessageEvent. */
  dispatch(block) {
    let type = "message";
    const data = [];
    for (const line of block.split("\n")) {
      const colon = line.indexOf(":");
      if (colon === 0) continue;
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") type = value;
      else if (field === "data") data.push(value);
      else if (field === "id") this.lastEventId = value;
      else if (field === "retry" && /^\d+$/.test(value)) this.retry = Number(value);
    }
    if (data.length) this.dispatchEvent(new MessageEvent(type, {data: data.join("\n"), lastEventId: this.lastEventId ?? ""}));
  }

  dropped() {
    if (this.readyState === CLOSED) return;
    this.readyState = CONNECTING;
    this.dispatchEvent(new Event("error"));
    this.timer = setTimeout(() => this.connect(), this.retry);
  }

  stop() {
    this.readyState = CLOSED;
    this.dispatchEvent(new Event("error"));
  }

  close() {
    this.readyState = CLOSED;
    clearTimeout(this.timer);
    this.aborter?.abort();
  }
}
