// The person as a player (docs/api.md "Players"): a first visit makes one silently with the name asked, and the key
// stays in this browser; the "Me" panel (#/me) shows the name (editable), links another device (a code, a link
// carrying it in the fragment, its QR code), lists the devices in use and My games, with the ratings (a chart each)
// and the record in The Game; #/link/<code> is that link's landing on the other device, #/player/<id> a public
// profile.

import {call, get, waitFor} from "./api.js";
import {h, useStyle} from "./dom.js";
import {explain, list, number, refusal, t, when} from "./i18n.js";
import {myDailyPart} from "./daily.js";
import {boardLinks, ratingsPart, recordPart} from "./ratings.js";
import * as storage from "./storage.js";
import {outcomeWords} from "./words.js";

const PAGE = 20; // games a page of My games shows
let joining = false; // a player is being made: once is enough

/** Make this browser's player named `name` unless it has one; calls wait for its key. A refusal (the address's
 * budget spent) leaves the page anonymous, as before players: it tries again on the next visit. */
export function join(name) {
  if (storage.player() || joining || !name) return;
  joining = true;
  waitFor(call("POST", "/players", {body: {name}, alone: true}).then(storage.setPlayer, () => {}).finally(() => {
    joining = false;
  }));
}

/** The name the person typed at the top: the player's from now on (seats taken before keep theirs). */
export function rename(name) {
  if (!storage.player()) return join(name);
  return call("PATCH", "/players/me", {body: {name}}).catch(() => {});
}

/** #/link/<code>: this device takes a key of the code's player, then shows the Me panel. */
export function mountLink(root, {gameId: code, go}) {
  useStyle("/web/me.css"); // the panel's few styles, with its first showing
  history.replaceState(null, "", "#/me"); // the code leaves the address bar at once
  root.replaceChildren(h("p", {"aria-busy": "true"}, t("me.linking")));
  redeem(decodeURIComponent(code)).then(() => go("#/me"), (error) => {
    root.replaceChildren(h("section", {class: "panel me-panel"}, h("h2", {tabindex: "-1"}, t("me.title")),
      h("p", {class: "error", role: "alert"}, refusal(error)), codeForm(go, code)));
    root.querySelector("h2").focus();
  });
  return () => {};
}

async function redeem(code) {
  const made = await call("POST", "/players/link", {body: {code}, alone: true});
  storage.setPlayer(made);
  storage.setName(made.name);
  const field = document.getElementById("name");
  if (field) field.value = made.name;
}

/** "Use a code from another device": a form that links this device with a typed code. */
function codeForm(go, code = "") {
  const status = h("p", {class: "error", role: "alert"});
  return h("form", {class: "link-code", onsubmit: async (event) => {
    event.preventDefault();
    try {
      await redeem(new FormData(event.target).get("code"));
      go("#/me");
    } catch (error) {
      status.textContent = refusal(error);
    }
  }}, h("h3", {}, t("me.use_code")), h("p", {class: "me-help", id: "code-help"}, t("me.use_code_help")),
  h("p", {}, h("label", {for: "link-code"}, t("me.code")), " ",
    h("input", {id: "link-code", name: "code", value: code, required: true, autocomplete: "off", autocapitalize: "characters",
      spellcheck: "false", maxlength: "20", "aria-describedby": "code-help"}), " ",
    h("button", {type: "submit"}, t("me.link_this"))), status);
}

/** The Me panel. */
export function mountMe(root, {go, askName, catalog}) {
  let shown = true;
  useStyle("/web/me.css");
  const heading = h("h2", {tabindex: "-1"}, t("me.title"));
  const panel = h("section", {class: "panel me-panel", "aria-labelledby": "me-title"}, heading);
  heading.id = "me-title";
  root.replaceChildren(panel);
  heading.focus();
  if (!storage.player()) {
    panel.append(h("p", {}, t("me.none")), codeForm(go));
    return () => { shown = false; };
  }
  get("/players/me").then((me) => shown && panel.append(nameForm(me, askName), profileLink(me),
    ratingsPart(me.ratings), boardLinks(catalog), recordPart(me.the_game), myDailyPart(storage.player().key), linkPart(), codeForm(go), devices(go), myGames()),
  (error) => {
    if (!shown) return;
    panel.append(h("p", {class: "error", role: "alert"}, refusal(error)));
    if (!storage.player()) panel.append(h("p", {}, t("me.none")), codeForm(go));
  });
  return () => { shown = false; };
}

function nameForm(me, askName) {
  const status = h("p", {role: "status"});
  return h("form", {class: "me-name", onsubmit: async (event) => {
    event.preventDefault();
    const name = new FormData(event.target).get("name").trim();
    try {
      await call("PATCH", "/players/me", {body: {name}});
      const field = document.getElementById("name");
      field.value = name;
      askName(); // the field at the top and the name kept follow
      status.textContent = t("me.name_saved");
    } catch (error) {
      status.textContent = refusal(error);
    }
  }}, h("p", {}, h("label", {for: "me-name"}, t("me.name")), " ",
    h("input", {id: "me-name", name: "name", value: me.name, required: true, maxlength: "40", autocomplete: "nickname"}), " ",
    h("button", {type: "submit"}, t("me.save"))), status,
  h("p", {class: "me-help"}, t("me.since", {when: when(new Date(me.since))})));
}

function profileLink(me) {
  return h("p", {}, h("a", {href: `#/player/${me.player_id}`}, t("me.profile")));
}

/** "Link another device": a code (valid 10 minutes, used once), the link carrying it, and its QR code. */
function linkPart() {
  const shown = h("div", {class: "link-shown", "aria-live": "polite"});
  return h("div", {class: "link-device"}, h("h3", {}, t("me.link_title")), h("p", {class: "me-help"}, t("me.link_help")),
    h("button", {type: "button", onclick: async () => {
      try {
        const [made, qr] = await Promise.all([call("POST", "/players/me/link", {body: {}}), import("./qr.js")]);
        const link = `${location.origin}${location.pathname}#/link/${made.code}`;
        shown.replaceChildren(
          h("p", {}, t("me.code_is"), " ", h("strong", {class: "me-code"}, made.code), " ",
            t("me.code_until", {when: when(new Date(made.expires_at))})),
          h("p", {}, h("label", {for: "link-url"}, t("me.link")), " ",
            h("input", {id: "link-url", readonly: true, value: link, onfocus: (event) => event.target.select()})),
          qr.qrSvg(link, t("me.qr", {code: made.code})));
      } catch (error) {
        shown.replaceChildren(h("p", {class: "error", role: "alert"}, refusal(error)));
      }
    }}, t("me.link_make")), shown);
}

/** The devices in use, each with "sign out" (this device's forgets its key). */
function devices(go) {
  const part = h("div", {class: "me-devices"}, h("h3", {id: "devices-title"}, t("me.devices")));
  get("/players/me/keys").then((answer) => part.append(h("ul", {"aria-labelledby": "devices-title"},
    answer.keys.map((key) => h("li", {},
      h("span", {}, t("me.device_facts", {device: t(key.this_device ? "me.this_device" : "me.other_device"),
        created: when(new Date(key.created_at)), used: key.last_used_at ? when(new Date(key.last_used_at)) : t("me.never")})), " ",
      h("button", {type: "button", class: "small", "aria-label": t(key.this_device ? "me.sign_out_here" : "me.sign_out_device",
        {created: when(new Date(key.created_at))}), onclick: async (event) => {
        try {
          await call("DELETE", `/players/me/keys/${key.key_id}`);
        } catch (error) {
          event.target.after(h("span", {class: "error", role: "alert"}, ` ${refusal(error)}`));
          return;
        }
        if (key.this_device) storage.setPlayer(null);
        go("#/me");
      }}, t("me.sign_out")))))), (error) => part.append(h("p", {class: "error"}, refusal(error))));
  return part;
}

/** My games (or a profile's public games): live ones to continue, finished ones to replay and analyse. */
function myGames(path = "/players/me/games", title = t("me.games")) {
  const list_ = h("ul", {class: "my-games", "aria-labelledby": "games-title"});
  const more = h("p", {});
  const part = h("div", {class: "me-games"}, h("h3", {id: "games-title"}, title), list_, more);
  const page = (cursor) => get(`${path}?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`).then((answer) => {
    list_.append(...answer.games.map(entry));
    if (!list_.childElementCount) list_.replaceWith(h("p", {}, t("me.no_games")));
    more.replaceChildren(answer.next ? h("button", {type: "button", onclick: () => page(answer.next)}, t("me.more")) : "");
  }, (error) => more.replaceChildren(h("span", {class: "error"}, refusal(error))));
  page(null);
  return part;
}

function entry(game) {
  const name = (seat) => (seat === game.seat ? t("seat.you") : game.seats[seat]?.name || t("seat.number", {number: seat + 1}));
  const others = game.seats.filter((seat) => seat.seat !== game.seat).map((seat) => name(seat.seat));
  const words = t(others.length ? "lobby.recent_entry" : "lobby.recent_alone",
    {game: t(`games:${game.game}.title`), others: list(others), when: when(new Date(game.created_at))});
  const state = game.live ? t(game.status === "lobby" ? "me.waiting" : "me.playing")
    : game.outcome ? outcomeWords(game, name).headline : t("me.ended");
  return h("li", {"data-game": game.game_id}, `${words} (${state}) `, game.live
    ? h("a", {href: `#/game/${game.game_id}`, "aria-label": t("me.continue_named", {game: words})}, t("me.continue"))
    : h("a", {href: `#/replay/${game.game_id}`, "aria-label": t("me.replay_named", {game: words})}, t("me.replay")));
}

/** #/player/<id>: a player's public profile (name, member since, games played per game) and public games. */
export function mountProfile(root, {gameId: id, catalog}) {
  let shown = true;
  useStyle("/web/me.css");
  const panel = h("section", {class: "panel me-panel"}, h("h2", {tabindex: "-1"}, t("me.profile_title")));
  root.replaceChildren(panel);
  get(`/players/${encodeURIComponent(id)}`).then((profile) => {
    if (!shown) return;
    const played = Object.entries(profile.played);
    panel.firstElementChild.textContent = profile.name;
    panel.append(h("p", {}, t("me.since", {when: when(new Date(profile.since))})),
      h("p", {}, played.length ? t("me.played", {games: list(played.map(([game, count]) =>
        `${t(`games:${game}.title`)}: ${number(count)}`))}) : t("me.played_none")),
      ratingsPart(profile.ratings), boardLinks(catalog), recordPart(profile.the_game),
      myGames(`/players/${encodeURIComponent(id)}/games`, t("me.public_games")));
    panel.firstElementChild.focus();
  }, (error) => shown && panel.append(h("p", {class: "error", role: "alert"}, explain(error))));
  return () => { shown = false; };
}
