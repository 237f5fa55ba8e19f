// The page's entry: the catalog, the person's name, and the route in the address's fragment (#/game/<id>,
// #/replay/<id>, #/seat/<id>/<token>, #/me, #/link/<code>, #/player/<id>, #/leaderboard/<game>): a fragment never reaches a server, so a shared seat's token stays out of logs.

import {get} from "./api.js";
import {mountGame} from "./game.js";
import {h} from "./dom.js";
import {choose, current, LANGUAGES, load, t} from "./i18n.js";
import {mountLobby} from "./lobby.js";
import {join, mountLink, mountMe, mountProfile, rename} from "./me.js";
import {mountLeaderboard} from "./ratings.js";
import {mountReplay} from "./replay.js";
import * as storage from "./storage.js";

const main = document.getElementById("main");
const nameInput = document.getElementById("name");
let unmount = () => {};
let catalog = [];

/** The person's name: asked once (the field at the top), then remembered; `""` after pointing at the empty field. */
function askName() {
  const value = nameInput.value.trim();
  if (value) {
    storage.setName(value);
    join(value);
    return value;
  }
  nameInput.focus();
  nameInput.setAttribute("aria-invalid", "true");
  document.getElementById("name-help").textContent = t("shell.name_first");
  return "";
}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

/** A screen whose module loads when first shown (the rules): its unmount works before the module has come too. */
function later(loading, mount) {
  let unmountLoaded = null;
  let gone = false;
  loading.then((module) => { if (!gone) unmountLoaded = mount(module); });
  return () => {
    gone = true;
    unmountLoaded?.();
  };
}

function route() {
  unmount();
  const [, screen, id, extra] = location.hash.split("/");
  const context = {catalog, go, askName, gameId: id};
  if (screen === "seat" && id && extra) {
    storage.hold(id, {seatToken: decodeURIComponent(extra)});
    history.replaceState(null, "", `#/game/${id}`); // the token leaves the address bar at once
    return route();
  }
  document.body.dataset.screen = screen || "lobby";
  if (screen === "game" && id) unmount = mountGame(main, context);
  else if (screen === "replay" && id) unmount = mountReplay(main, {...context, step: extra});
  else if (screen === "me") unmount = mountMe(main, context);
  else if (screen === "link" && id) unmount = mountLink(main, context);
  else if (screen === "player" && id) unmount = mountProfile(main, context);
  else if (screen === "leaderboard" && id) unmount = mountLeaderboard(main, context);
  else if (screen === "rules" && id) unmount = later(import("./rules.js"), (rules) => rules.mountRules(main, {...context, section: extra}));
  else unmount = mountLobby(main, context);
  window.scrollTo(0, 0);
}

/** The shell's own words (title, name field, footer) and the language switch, in the current language. */
function drawShell() {
  document.title = t("shell.document_title");
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  const nav = document.querySelector(".languages");
  nav.replaceChildren(nav.firstElementChild, ...Object.entries(LANGUAGES).map(([lang, name]) =>
    h("button", {type: "button", class: "small", lang, "aria-pressed": String(lang === current()), onclick: async () => {
      await choose(lang);
      drawShell();
      route();
      nav.querySelector(`[lang="${lang}"]`).focus();
    }}, h("span", {"aria-hidden": "true"}, lang.toUpperCase()), h("span", {class: "visually-hidden"}, name))));
}

async function boot() {
  try {
    await load();
  } catch (error) {
    main.replaceChildren(h("p", {class: "error"}, String(error.message)));
    return;
  }
  drawShell();
  nameInput.value = storage.name();
  join(storage.name()); // a name kept from before players: the player is made now
  nameInput.addEventListener("change", () => {
    storage.setName(nameInput.value);
    rename(nameInput.value.trim());
    nameInput.removeAttribute("aria-invalid");
    document.getElementById("name-help").textContent = "";
  });
  try {
    catalog = (await get("/games/catalog")).games;
  } catch (error) {
    main.replaceChildren(h("p", {class: "error"}, t("shell.unreachable", {message: error.message})));
    return;
  }
  window.addEventListener("hashchange", route);
  route();
  document.body.dataset.ready = "true";
  performance.mark("ready"); // the lobby (or the game) is drawn: bench/web_page.py reads it
}

boot();
