// The service's HTTP API (docs/api.md): JSON in and out, errors as ApiError with the server's code and message. A
// call without a token sends this browser's player key (docs/api.md "Players"), so that the seats it takes bind to
// the player; a key the server no longer knows (signed out from another device) is forgotten, and the call retried.

import * as storage from "./storage.js";

let making = null; // the player being made on a first visit: calls wait for its key

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `the server answered ${status}`);
    this.status = status;
    this.code = body?.error || "http_error";
  }
}

/** A random key for `Idempotency-Key` (also outside secure contexts, where `crypto.randomUUID` is missing). */
export function randomKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `method` on `/v1` + `path`; resolves to the JSON answer (`null` for 204), rejects with an ApiError. */
export async function call(method, path, options) {
  return (await exchange(method, `/v1${path}`, options)).data;
}

/** Calls wait for `promise` (the player being made) before they choose their key. */
export function waitFor(promise) {
  making = promise.finally(() => { if (making === promise) making = null; });
}

/** `method` on `url` (a path of this origin): its status, headers and JSON body, for a caller that needs more than the
 * body (a `202` and its `Location`); rejects with an ApiError as `call` does. */
export async function exchange(method, url, {token, body, key, alone} = {}) {
  if (!alone) await making?.catch(() => {});
  const player = token ? null : storage.player();
  const headers = {};
  if (token || player) headers.Authorization = `Bearer ${token || player.key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["Idempotency-Key"] = key;
  const init = {method, headers, body: body === undefined ? undefined : JSON.stringify(body)};
  const answer = await fetchAgain(url, init, method === "GET" || Boolean(key));
  const data = parsed(await answer.text());
  if (player && answer.status === 401 && data?.error === "invalid_token" && await revoked(player.key)) {
    storage.setPlayer(null);
    return exchange(method, url, {body, key, alone});
  }
  if (!answer.ok) throw new ApiError(answer.status, data);
  return {status: answer.status, headers: answer.headers, data};
}

/** `fetch`, sent again while the answer is a network error or a 502, 503 or 504 (a server restarting behind its
 * proxy, the store away for a moment), when sending it again is safe (`again`: a read, or a change with its
 * Idempotency-Key, which the server applies once however often it comes): after the answer's Retry-After, or
 * 0.5, 1, 2 then 4 s. */
async function fetchAgain(url, init, again) {
  for (let attempt = 0; ; attempt++) {
    const last = !again || attempt === AGAIN_MS.length;
    try {
      const answer = await fetch(url, init);
      if (last || !PASSING.has(answer.status)) return answer;
      await sleep(Number(answer.headers.get("Retry-After")) * 1000 || AGAIN_MS[attempt]);
    } catch {
      if (last) throw new ApiError(0, {error: "network", message: "the service cannot be reached: check the connection"});
      await sleep(AGAIN_MS[attempt]);
    }
  }
}

const AGAIN_MS = [500, 1000, 2000, 4000];
const PASSING = new Set([502, 503, 504]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An answer's JSON; `null` for none, or for a body that is not JSON (a proxy's own error page). */
function parsed(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Whether the server refuses `key` itself (rather than a route refusing it a seat it holds none of). */
async function revoked(key) {
  try {
    return (await fetch("/v1/players/me", {headers: {Authorization: `Bearer ${key}`}})).status === 401;
  } catch {
    return false;
  }
}

export const get = (path, token) => call("GET", path, {token});
