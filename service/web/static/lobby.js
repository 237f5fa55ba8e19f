// The lobby: create a game of any game the catalog lists (its options and seats drawn from the catalog, nothing
// written here per game), join an open game from the public list or by its link, and find your recent games.

import {call, get, randomKey} from "./api.js";
import {dailyPanel} from "./daily.js";
import {h} from "./dom.js";
import {playNow} from "./pairing.js";
import {picture} from "./pictures.js";
import {gameWords, list as list_, refusal, t, when} from "./i18n.js";
import * as storage from "./storage.js";
import {outcomeWords, seatName} from "./words.js";

const ME = "me";
const OPEN = "open";
const RECENT = 8; // recent games listed

export function mountLobby(root, {catalog, go, askName}) {
  const error = h("p", {class: "error"});
  const fail = (caught) => { error.textContent = refusal(caught); };
  const form = h("form", {class: "create", "aria-labelledby": "create-title"});
  const openGames = h("div", {class: "open-games"});
  let chosen = catalog[0];
  const drawForm = () => drawCreate(form, catalog, chosen, askName, (game) => {
    chosen = game;
    drawForm();
    form.querySelector(`#game-${game.name}`).focus(); // the keyboard stays on the tiles (arrows move between them)
  });
  drawForm();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = askName();
    if (!name) return;
    try {
      go(`#/game/${await create(form, chosen, name)}`);
    } catch (caught) {
      fail(caught);
    }
  });
  const refresh = () => listOpen(openGames, catalog, go, askName, fail);
  const joinInput = h("input", {id: "join-id", name: "join", autocomplete: "off", placeholder: t("lobby.join_placeholder")});
  root.replaceChildren(
    h("section", {class: "panel"}, h("h2", {id: "create-title"}, t("lobby.new_game")), form, error),
    dailyPanel({catalog, go, askName}),
    h("section", {class: "panel", "aria-labelledby": "open-title"},
      h("h2", {id: "open-title"}, t("lobby.open_games")), h("button", {type: "button", onclick: refresh}, t("lobby.refresh")), openGames),
    h("section", {class: "panel", "aria-labelledby": "join-title"}, h("h2", {id: "join-title"}, t("lobby.join_title")),
      h("form", {class: "join", onsubmit: (event) => {
        event.preventDefault();
        const text = joinInput.value.trim();
        const id = text.match(/#\/(?:game|replay)\/([A-Za-z0-9_-]+)/)?.[1] || text;
        if (id) go(`#/game/${id}`);
      }}, h("label", {for: "join-id"}, t("lobby.join_label")), joinInput, h("button", {type: "submit"}, t("lobby.join_open")))),
    recentGames(catalog));
  refresh();
  return () => {};
}

function drawCreate(form, catalog, game, askName, choose) {
  const players = Math.max(2, game.players.min);
  const seats = h("fieldset", {class: "seats-setup"}, h("legend", {}, t("lobby.seats")));
  const playersInput = h("input", {type: "number", id: "players", name: "players", min: game.players.min, max: game.players.max, value: players, required: true});
  const mode = () => form.elements.namedItem("with")?.value;
  const drawSeats = () => {
    const count = Math.min(game.players.max, Math.max(game.players.min, Number(playersInput.value) || players));
    seats.replaceChildren(h("legend", {}, t("lobby.seats")), ...(mode()
      ? Array.from({length: count}, (_, seat) => seatChoice(seat, game, mode()))
      : [h("p", {class: "hint"}, t("lobby.with_first"))]));
  };
  playersInput.addEventListener("input", drawSeats); // each key typed, not only when the field loses the focus
  form.replaceChildren(
    h("fieldset", {class: "games"}, h("legend", {}, t("lobby.game")), catalog.map((entry) => tile(entry, entry === game, choose, askName))),
    h("fieldset", {class: "with"}, h("legend", {}, t("lobby.with")),
      ["friends", "bots"].map((value) => h("label", {}, h("input", {type: "radio", name: "with", value, required: true,
        onchange: drawSeats}), " ", t(`lobby.with_${value}`)))),
    h("p", {}, h("label", {for: "players"}, t("lobby.players"), " "), playersInput),
    seats,
    botLevels(game),
    options(game),
    h("p", {}, h("label", {}, h("input", {type: "checkbox", name: "public"}), " ", t("lobby.public"))),
    game.rated ? h("p", {}, h("label", {}, h("input", {type: "checkbox", name: "rated", "aria-describedby": "rated-help"}), " ",
      t("lobby.rated")), " ", h("small", {id: "rated-help"}, t("lobby.rated_help"))) : null,
    h("p", {}, h("button", {type: "submit", class: "primary"}, t("lobby.create"))));
  drawSeats();
}

/** A game's tile: its table in a picture, its title, players and pitch; a radio button (arrows move between the
 * tiles, as between any radio buttons), "Play now" (a table of two, or the game's fewest) and the game's "How to play". */
function tile(entry, checked, choose, askName) {
  const id = `game-${entry.name}`;
  return h("div", {class: "tile"},
    h("input", {type: "radio", name: "game", id, value: entry.name, checked, class: "tile-radio",
      "aria-describedby": `${id}-about`, onchange: () => choose(entry)}),
    h("label", {for: id}, picture(entry.name), h("strong", {}, t(`games:${entry.name}.title`))),
    h("p", {id: `${id}-about`}, h("small", {}, t(entry.cooperative ? "lobby.players_cooperative" : "lobby.players_competitive",
      {min: entry.players.min, max: entry.players.max})), " ", t(`games:${entry.name}.pitch`)),
    playNow(entry, Math.max(2, entry.players.min), askName),
    howToPlay(entry.name));
}

/** A link to `game`'s rules (the page's "How to play" panel, at `#/rules/<game>`). */
export function howToPlay(game) {
  return h("a", {class: "how-to-play", href: `#/rules/${game}`}, t("lobby.how_to_play"));
}

/** Each bot level of `game` in a sentence: what playing against it is like. */
function botLevels(game) {
  return h("details", {class: "bot-levels"}, h("summary", {}, t("lobby.bot_levels")),
    h("dl", {}, game.bots.map((bot) => [h("dt", {}, gameWords(game.name, `bots.${bot}.name`)),
      h("dd", {}, gameWords(game.name, `bots.${bot}.about`))])));
}

function seatChoice(seat, game, mode) {
  const choices = [[ME, t("lobby.seat_you")], [OPEN, t("lobby.seat_open")],
    ...game.bots.map((bot) => [`bot:${bot}`, t("lobby.seat_bot", {level: gameWords(game.name, `bots.${bot}.name`)})])];
  const initial = seat === 0 ? ME : mode === "friends" ? OPEN : `bot:${game.bots[0]}`;
  return h("p", {class: "seat-choice"}, h("label", {for: `seat-${seat}`}, t("lobby.seat", {number: seat + 1}), " "),
    h("select", {id: `seat-${seat}`, name: `seat-${seat}`},
      choices.map(([value, text]) => h("option", {value, selected: value === initial}, text))));
}

/** The game's options as inputs: a preset first, the others under "More options", each with its description. */
function options(game) {
  const fields = game.options.map((option) => optionField(game, option));
  const preset = game.options.findIndex((option) => option.name === "preset");
  const first = preset >= 0 ? fields.splice(preset, 1) : [];
  return h("div", {class: "options"}, first,
    h("details", {}, h("summary", {}, t("lobby.more_options")), fields,
      h("p", {class: "option"}, h("label", {for: "opt-seed"}, t("lobby.seed"), " "),
        h("input", {type: "number", id: "opt-seed", name: "seed", min: 0, step: 1, "aria-describedby": "opt-seed-about"}),
        h("small", {id: "opt-seed-about"}, t("lobby.seed_help"))),
      h("p", {class: "option"}, h("label", {for: "opt-reaction"}, t("lobby.pace"), " "),
        h("input", {type: "number", id: "opt-reaction", name: "reaction_ms", min: 0, max: 60000, step: 1,
          "aria-describedby": "opt-reaction-about"}),
        h("small", {id: "opt-reaction-about"}, t("lobby.pace_help")))));
}

function optionField(game, option) {
  const words = (part, vars) => gameWords(game.name, `options.${option.name}.${part}`, vars);
  const id = `opt-${option.name}`;
  const describedBy = `${id}-about`;
  let input;
  if (option.type === "bool") {
    input = h("select", {id, name: option.name, "aria-describedby": describedBy},
      h("option", {value: ""}, t(option.default ? "lobby.default_yes" : "lobby.default_no")),
      h("option", {value: "true"}, t("lobby.yes")), h("option", {value: "false"}, t("lobby.no")));
  } else if (option.choices) {
    input = h("select", {id, name: option.name, "aria-describedby": describedBy},
      option.choices.map((choice) => h("option", {value: choice, selected: choice === option.default}, words(`values.${choice}`))));
  } else {
    input = h("input", {type: "number", id, name: option.name, min: option.min, max: option.max, step: 1,
      placeholder: option.default === null ? t("lobby.default") : String(option.default), "aria-describedby": describedBy});
  }
  return h("p", {class: "option"}, h("label", {for: id}, words("label"), " "), input,
    h("small", {id: describedBy}, words("help")));
}

/** Create the lobby, seat the bots, take the person's seat; start at once when every seat is taken. */
async function create(form, game, name) {
  const data = new FormData(form);
  const chosen = {};
  for (const option of game.options) {
    const raw = data.get(option.name);
    if (raw === null || raw === "" || (option.choices && raw === option.default)) continue;
    chosen[option.name] = option.type === "int" ? Number(raw) : option.type === "bool" ? raw === "true" : raw;
  }
  const players = Number(data.get("players"));
  const body = {game: game.name, players, options: chosen, public: data.get("public") === "on", rated: data.get("rated") === "on"};
  if (data.get("seed")) body.seed = Number(data.get("seed"));
  const created = await call("POST", "/games", {body});
  const gameId = created.game_id;
  const host = created.host_token;
  storage.hold(gameId, {hostToken: host});
  const reaction = data.get("reaction_ms");
  const seats = Array.from({length: players}, (_, seat) => data.get(`seat-${seat}`));
  let full = true;
  for (const [seat, choice] of seats.entries()) {
    if (choice === ME) {
      const taken = await call("POST", `/games/${gameId}/seats`, {body: {name, seat}, key: randomKey()});
      storage.hold(gameId, {seatToken: taken.token, seat});
    } else if (choice.startsWith("bot:")) {
      const bot = choice.slice(4);
      const seatBody = {name: `${bot} bot`, bot, seat, ...(reaction ? {reaction_ms: Number(reaction)} : {})};
      await call("POST", `/games/${gameId}/seats`, {token: host, body: seatBody, key: randomKey()});
    } else {
      full = false;
    }
  }
  if (full) await call("POST", `/games/${gameId}/start`, {token: host, body: {}});
  return gameId;
}

async function listOpen(root, catalog, go, askName, fail) {
  let page;
  try {
    page = await get("/games?status=lobby");
  } catch (caught) {
    fail(caught);
    return;
  }
  if (!page.games.length) return root.replaceChildren(h("p", {}, t("lobby.none_open")));
  root.replaceChildren(h("ul", {class: "open-list"}, page.games.map((game) => h("li", {},
    h("span", {}, t("lobby.open_entry", {game: t(`games:${game.game}.title`), players: game.players,
      free: t("lobby.free", {count: game.free_seats.length})})),
    h("button", {type: "button", onclick: async () => {
      const name = askName();
      if (!name) return;
      try {
        const taken = await call("POST", `/games/${game.game_id}/seats`, {body: {name}, key: randomKey()});
        storage.hold(game.game_id, {seatToken: taken.token, seat: taken.seat});
        go(`#/game/${game.game_id}`);
      } catch (caught) {
        fail(caught);
      }
    }}, t("lobby.join")),
    h("a", {href: `#/game/${game.game_id}`}, t("lobby.watch"))))));
}

/** This browser's games, newest first, each named by what it is (the game, with whom, when, how it ended); a game
 * the server no longer has (expired) is forgotten, and its line removed. */
function recentGames(catalog) {
  const games = storage.recent(Infinity).filter(([, facts]) => catalog.some((entry) => entry.name === facts.game)).slice(0, RECENT);
  const list = h("ul", {class: "recent-list"}, games.map(([id, facts]) => {
    const view = {game: facts.game, seat: facts.seat, seats: facts.seats || [], outcome: facts.outcome};
    const name = (seat) => seatName(facts.game, view.seats, seat, facts.seat);
    const others = view.seats.filter((seat) => seat.seat !== facts.seat).map((seat) => name(seat.seat));
    const state = facts.outcome ? outcomeWords(view, name).headline : t(facts.seatToken ? "lobby.your_seat" : "lobby.you_host");
    return h("li", {"data-game": id}, h("a", {href: `#/game/${id}`}, t(others.length ? "lobby.recent_entry" : "lobby.recent_alone",
      {game: t(`games:${facts.game}.title`), others: list_(others), when: when(new Date(facts.at))})), ` (${state})`);
  }));
  for (const [id, facts] of games) {
    get(`/games/${id}`, facts.seatToken || facts.hostToken).catch((error) => {
      if (error.status !== 404) return;
      storage.forget(id);
      list.querySelector(`[data-game="${id}"]`)?.remove();
    });
  }
  return h("section", {class: "panel", "aria-labelledby": "recent-title", hidden: !games.length},
    h("h2", {id: "recent-title"}, t("lobby.recent")), list);
}
