// The lobby: create a game of any game the catalog lists (its options and seats drawn from the catalog, nothing
// written here per game), join an open game from the public list or by its link, and find your recent games.

import {ApiError, call, get, randomKey} from "./api.js";
import {dailyPanel} from "./daily.js";
import {h} from "./dom.js";
import * as storage from "./storage.js";

const ME = "me";
const OPEN = "open";

export function mountLobby(root, {catalog, go, askName}) {
  const error = h("p", {class: "error"});
  const fail = (caught) => { error.textContent = caught instanceof ApiError ? `Refused: ${caught.message}` : String(caught); };
  const form = h("form", {class: "create", "aria-labelledby": "create-title"});
  const openGames = h("div", {class: "open-games"});
  let chosen = catalog[0];
  const drawForm = () => drawCreate(form, catalog, chosen, (game) => { chosen = game; drawForm(); });
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
  const joinInput = h("input", {id: "join-id", name: "join", autocomplete: "off", placeholder: "game id or link"});
  root.replaceChildren(
    h("section", {class: "panel"}, h("h2", {id: "create-title"}, "New game"), form, error),
    dailyPanel({catalog, go, askName}),
    h("section", {class: "panel", "aria-labelledby": "open-title"},
      h("h2", {id: "open-title"}, "Open games"), h("button", {type: "button", onclick: refresh}, "Refresh"), openGames),
    h("section", {class: "panel", "aria-labelledby": "join-title"}, h("h2", {id: "join-title"}, "Join by link"),
      h("form", {class: "join", onsubmit: (event) => {
        event.preventDefault();
        const text = joinInput.value.trim();
        const id = text.match(/#\/(?:game|replay)\/([A-Za-z0-9_-]+)/)?.[1] || text;
        if (id) go(`#/game/${id}`);
      }}, h("label", {for: "join-id"}, "Game"), joinInput, h("button", {type: "submit"}, "Open"))),
    recent());
  refresh();
  return () => {};
}

function drawCreate(form, catalog, game, choose) {
  const players = Math.max(2, game.players.min);
  const seats = h("fieldset", {class: "seats-setup"}, h("legend", {}, "Seats"));
  const playersInput = h("input", {type: "number", id: "players", name: "players", min: game.players.min, max: game.players.max, value: players, required: true});
  const drawSeats = () => {
    const count = Math.min(game.players.max, Math.max(game.players.min, Number(playersInput.value) || players));
    seats.replaceChildren(h("legend", {}, "Seats"), ...Array.from({length: count}, (_, seat) => seatChoice(seat, game)));
  };
  playersInput.addEventListener("change", drawSeats);
  form.replaceChildren(
    h("fieldset", {class: "games"}, h("legend", {}, "Game"), catalog.map((entry) =>
      h("label", {class: "game-choice"}, h("input", {type: "radio", name: "game", value: entry.name, checked: entry === game,
        onchange: () => choose(entry)}), ` ${entry.title} `,
        h("small", {}, `${entry.players.min}–${entry.players.max} players, ${entry.cooperative ? "cooperative" : "competitive"}`)))),
    h("p", {}, h("label", {for: "players"}, "Players "), playersInput),
    seats,
    options(game),
    h("p", {}, h("label", {}, h("input", {type: "checkbox", name: "public"}), " List it among the open games")),
    h("p", {}, h("button", {type: "submit", class: "primary"}, "Create the game")));
  drawSeats();
}

function seatChoice(seat, game) {
  const choices = [[ME, "You"], [OPEN, "A person (open seat)"], ...game.bots.map((bot) => [`bot:${bot}`, `Bot: ${bot}`])];
  const initial = seat === 0 ? ME : `bot:${game.bots[0]}`;
  return h("p", {class: "seat-choice"}, h("label", {for: `seat-${seat}`}, `Seat ${seat + 1} `),
    h("select", {id: `seat-${seat}`, name: `seat-${seat}`},
      choices.map(([value, text]) => h("option", {value, selected: value === initial}, text))));
}

/** The game's options as inputs: a preset first, the others under "More options", each with its description. */
function options(game) {
  const fields = game.options.map((option) => optionField(option));
  const preset = game.options.findIndex((option) => option.name === "preset");
  const first = preset >= 0 ? fields.splice(preset, 1) : [];
  return h("div", {class: "options"}, first,
    h("details", {}, h("summary", {}, "More options"), fields,
      h("p", {class: "option"}, h("label", {for: "opt-seed"}, "Seed "),
        h("input", {type: "number", id: "opt-seed", name: "seed", min: 0, step: 1}),
        h("small", {}, "the same seed deals the same cards (empty: a secret one)")),
      h("p", {class: "option"}, h("label", {for: "opt-reaction"}, "Bots' pace (ms) "),
        h("input", {type: "number", id: "opt-reaction", name: "reaction_ms", min: 0, max: 60000, step: 1}),
        h("small", {}, "how long bots wait on average before each move (empty: the game's default)"))));
}

function optionField(option) {
  const id = `opt-${option.name}`;
  const describedBy = `${id}-about`;
  let input;
  if (option.type === "bool") {
    input = h("select", {id, name: option.name, "aria-describedby": describedBy},
      h("option", {value: ""}, `default (${option.default ? "yes" : "no"})`), h("option", {value: "true"}, "yes"), h("option", {value: "false"}, "no"));
  } else if (option.choices) {
    input = h("select", {id, name: option.name, "aria-describedby": describedBy},
      option.choices.map((choice) => h("option", {value: choice, selected: choice === option.default}, choice)));
  } else {
    input = h("input", {type: "number", id, name: option.name, min: option.min, max: option.max, step: 1,
      placeholder: option.default === null ? "default" : String(option.default), "aria-describedby": describedBy});
  }
  return h("p", {class: "option"}, h("label", {for: id}, `${option.name.replaceAll("_", " ")} `), input,
    h("small", {id: describedBy}, option.description));
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
  const body = {game: game.name, players, options: chosen, public: data.get("public") === "on"};
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
  const title = (name) => catalog.find((entry) => entry.name === name)?.title || name;
  if (!page.games.length) return root.replaceChildren(h("p", {}, "No open game right now: create one."));
  root.replaceChildren(h("ul", {class: "open-list"}, page.games.map((game) => h("li", {},
    h("span", {}, `${title(game.game)}: ${game.players} players, ${game.free_seats.length} free`),
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
    }}, "Join"),
    h("a", {href: `#/game/${game.game_id}`}, "Watch")))));
}

function recent() {
  const games = storage.recent();
  if (!games.length) return null;
  return h("section", {class: "panel", "aria-labelledby": "recent-title"}, h("h2", {id: "recent-title"}, "Your recent games"),
    h("ul", {}, games.map(([id, facts]) => h("li", {}, h("a", {href: `#/game/${id}`}, `Game ${id}`),
      facts.seatToken ? " (your seat)" : facts.hostToken ? " (you host)" : ""))));
}
