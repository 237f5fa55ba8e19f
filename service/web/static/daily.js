// The daily deal: today's deal (UTC) of a game for a number of players, the same for everyone, played against the
// server's bots (The Game: a team the person picks; the competitive games: best bots), and that deal's board.

import {call, get} from "./api.js";
import {h} from "./dom.js";
import {gameWords, refusal, t} from "./i18n.js";
import * as storage from "./storage.js";

/** Today in UTC, as the server counts days: `YYYY-MM-DD`. */
export const today = () => new Date().toISOString().slice(0, 10);

export function dailyPanel({catalog, go, askName}) {
  let game = catalog[0];
  const error = h("p", {class: "error"});
  const board = h("div", {class: "daily-board"});
  const form = h("form", {class: "daily"});
  const players = () => Number(form.elements.namedItem("daily-players")?.value) || Math.max(2, game.players.min);
  const showBoard = () => drawBoard(board, game, players());
  const draw = () => {
    form.replaceChildren(
      h("p", {}, h("label", {for: "daily-game"}, t("daily.game"), " "),
        h("select", {id: "daily-game", name: "daily-game", onchange: (event) => {
          game = catalog.find((entry) => entry.name === event.target.value);
          draw();
        }}, catalog.map((entry) => h("option", {value: entry.name, selected: entry === game}, t(`games:${entry.name}.title`))))),
      h("p", {}, h("label", {for: "daily-players"}, t("daily.players"), " "),
        h("input", {type: "number", id: "daily-players", name: "daily-players", min: game.players.min,
          max: game.players.max, value: Math.max(2, game.players.min), required: true, onchange: showBoard})),
      game.cooperative
        ? h("p", {}, h("label", {for: "daily-team"}, t("daily.team"), " "),
          h("select", {id: "daily-team", name: "daily-team"},
            game.bots.map((bot) => h("option", {value: bot, selected: bot === "best"}, gameWords(game.name, `bots.${bot}.name`)))))
        : h("p", {}, h("small", {}, t("daily.against_best"))),
      h("p", {}, h("button", {type: "submit", class: "primary"}, t("daily.play"))));
    showBoard();
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = askName();
    if (!name) return;
    const count = players();
    const body = {game: game.name, players: count, daily: today(), name};
    if (game.cooperative) body.bots = Array(count - 1).fill(form.elements.namedItem("daily-team").value);
    try {
      const created = await call("POST", "/games", {body});
      const daily = `${game.name}/${count}/${body.daily}`; // the board it goes on: the lobby shows its rank
      storage.hold(created.game_id, {hostToken: created.host_token, seatToken: created.token, seat: created.seat, daily});
      go(`#/game/${created.game_id}`);
    } catch (caught) {
      error.textContent = refusal(caught);
    }
  });
  draw();
  return h("section", {class: "panel", "aria-labelledby": "daily-title"},
    h("h2", {id: "daily-title"}, t("daily.title")),
    h("p", {}, t("daily.about")),
    form, error, board);
}

/** The ranks of the results of this browser's games on the deal `showing` (`game/players/day`), asked with their
 * seat tokens and, when the player played the deal, with the player key (one entry per game); a game not over yet
 * has none. */
async function ranks(showing) {
  const asks = storage.recent(Infinity).filter(([, facts]) => facts.daily === showing && facts.seatToken)
    .map(([, facts]) => facts.seatToken);
  const me = storage.player();
  if (me && (await playedDeals(me.key, showing.split("/")[2])).includes(showing)) asks.push(me.key);
  const found = await Promise.all(asks.map((token) => get(`/daily/${showing}/me`, token).catch(() => null)));
  return [...new Map(found.filter(Boolean).map((entry) => [entry.game_id, entry])).values()];
}

/** The deals of `day` (`game/players/day`) on which the player finished a game: asked first, so that a player who
 * has not played one causes no refused rank. */
async function playedDeals(key, day) {
  const page = await get("/players/me/games?status=finished&limit=100", key).catch(() => null);
  const deals = (page?.games || []).filter((entry) => entry.daily === day).map((entry) => `${entry.game}/${entry.players}/${day}`);
  return [...new Set(deals)];
}

/** The Me panel's part: the player's results on today's deals, each with its rank and percentile. */
export function myDailyPart(key) {
  const part = h("div", {class: "me-daily"}, h("h3", {}, t("daily.mine_title")));
  playedDeals(key, today()).then((deals) => Promise.all(deals.map((deal) => get(`/daily/${deal}/me`, key).catch(() => null))))
    .then((found) => {
      const results = found.filter(Boolean);
      part.append(results.length ? h("ul", {}, results.map((entry) => h("li", {}, t("daily.mine_entry", {
        game: t(`games:${entry.game}.title`), players: entry.players, rank: entry.rank, count: entry.count}), " ",
      t("daily.your_percentile", {percent: entry.percentile})))) : h("p", {}, t("daily.mine_none")));
    });
  return part;
}

/** A result in words: a competitive game's place first, then cards left and turns. */
function result(entry, game) {
  const cards = t(`games:${game.name}.daily_cards`, {count: entry.cards_left});
  const rest = t("daily.result", {cards, turns: t("daily.turns", {count: entry.turns})});
  return entry.place === null ? rest : t("daily.result_place", {place: entry.place, rest});
}

const LOOK_AGAIN_MS = 2000; // while the bots' result is worked out (a few seconds), the board is read again
const LOOKS = 15;

async function drawBoard(root, game, players, looks = LOOKS) {
  const day = today();
  const showing = `${game.name}/${players}/${day}`;
  root.dataset.showing = showing;
  let page;
  try {
    page = await get(`/daily/${game.name}/${players}/${day}`);
  } catch (caught) {
    root.replaceChildren(h("p", {class: "error"}, t("daily.board_unreadable", {reason: refusal(caught)})));
    return;
  }
  if (root.dataset.showing !== showing) return; // another game or player count was chosen meanwhile
  const bots = page.bots ? t("daily.bots_result", {result: result(page.bots, game)}) : t("daily.bots_pending");
  const count = t("daily.count", {count: page.count});
  const rows = page.results.map((entry) => h("tr", {},
    h("td", {}, String(entry.rank)), h("td", {}, entry.name), h("td", {}, result(entry, game))));
  const mine = await ranks(showing);
  if (root.dataset.showing !== showing) return;
  root.replaceChildren(
    h("h3", {id: "daily-board-title"}, t("daily.board_title", {game: t(`games:${game.name}.title`), count: players})),
    h("p", {}, `${count} ${bots}`),
    ...mine.map((entry) => h("p", {class: "daily-mine"},
      t("daily.your_rank", {rank: entry.rank, count: entry.count, result: result(entry, game)}), " ",
      t("daily.your_percentile", {percent: entry.percentile}))),
    rows.length
      ? h("table", {"aria-labelledby": "daily-board-title"},
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("daily.rank")), h("th", {scope: "col"}, t("daily.name")),
          h("th", {scope: "col"}, t("daily.result_column")))),
        h("tbody", {}, rows))
      : h("p", {}, t("daily.no_result", {day})));
  if (!page.bots && looks > 0) {
    setTimeout(() => {
      if (root.isConnected && root.dataset.showing === showing) drawBoard(root, game, players, looks - 1);
    }, LOOK_AGAIN_MS);
  }
}
