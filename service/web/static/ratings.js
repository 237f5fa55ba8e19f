// Ratings on the page (docs/api.md "Ratings"): a rating in words ("1532", "1500?" while provisional), each rated
// table's ratings beside its names and, once it is over, their change ("1532 (+18)"); a game's leaderboard
// (#/leaderboard/<game>) with your own rank; a player's ratings over their rated games as a chart with a table.

import {get} from "./api.js";
import {h, s, useStyle} from "./dom.js";
import {number, refusal, t, when} from "./i18n.js";
import * as storage from "./storage.js";

const NEW = 1500; // a new player's rating (the leaderboard's scale.new)

/** A rating as shown: the number, with "?" while it is provisional. */
export function ratingWords(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

/** A rating's change, signed: "+18", "−7" (a minus sign, not a hyphen). */
const signed = ({before, after}) => `${after >= before ? "+" : "−"}${Math.abs(after - before)}`;

/** A rated game's change for one seat: "1532 (+18)". */
export function changeWords(change) {
  return t("rating.change", {rating: ratingWords(change.after, change.provisional), change: signed(change)});
}

/** The ratings of a rated table's players: asked once per player (their profile), then shown beside their names;
 * `redraw()` draws the seats again when one comes. */
export class TableRatings {
  constructor(redraw) {
    this.now = new Map(); // player id -> {rating, provisional}
    this.redraw = redraw;
  }

  follow(view) {
    if (!view.rated) return;
    useStyle("/web/ratings.css");
    for (const {player} of view.seats) {
      if (!player || this.now.has(player)) continue;
      this.now.set(player, null);
      get(`/players/${encodeURIComponent(player)}`).then((profile) => {
        const mine = profile.ratings[view.game];
        this.now.set(player, mine ? {rating: mine.rating, provisional: mine.provisional} : {rating: NEW, provisional: true});
        this.redraw();
      }, () => {});
    }
  }

  /** Beside the game's title: whether it is rated. */
  mark(view) {
    return view.rated ? h("span", {class: "rated-mark"}, t("rating.rated_game")) : null;
  }

  /** Under a finished rated game's ranking: what its numbers are. */
  summary(view) {
    return view.outcome?.ratings ? h("p", {class: "me-help"}, t("rating.after_game")) : null;
  }

  /** Seat `seat`'s rating beside its name: once the game is over its change, before that its rating now. */
  badge(view, seat) {
    const change = view.outcome?.ratings?.find((entry) => entry.seat === seat);
    const now = this.now.get(view.seats[seat]?.player);
    const words = change ? changeWords(change) : now ? ratingWords(now.rating, now.provisional) : null;
    return words && h("span", {class: "rating"}, h("span", {class: "visually-hidden"}, t("rating.label")), words);
  }
}

/** #/leaderboard/<game>: the best established players of a rated game, and the person's own place. */
export function mountLeaderboard(root, {gameId: game, catalog}) {
  let shown = true;
  useStyle("/web/ratings.css");
  const title = t("rating.board_title", {game: t(`games:${game}.title`)});
  const panel = h("section", {class: "panel leaderboard"}, h("h2", {tabindex: "-1", id: "board-title"}, title),
    h("p", {}, t("rating.board_about")), boardLinks(catalog, game));
  root.replaceChildren(panel);
  panel.firstElementChild.focus();
  const me = storage.player();
  Promise.all([get(`/leaderboards/${game}`), me ? get(`/leaderboards/${game}/me`).catch(() => null) : null]).then(([board, mine]) => {
    if (!shown) return;
    if (mine) panel.append(h("p", {class: "board-mine"}, myPlace(mine, board)));
    panel.append(board.players.length ? boardTable(board) : h("p", {}, t("rating.board_empty")));
  }, (error) => shown && panel.append(h("p", {class: "error", role: "alert"}, refusal(error))));
  return () => { shown = false; };
}

function myPlace(mine, board) {
  if (!mine.games) return t("rating.no_games");
  if (mine.rank === null) return t("rating.off_board", {rating: ratingWords(mine.rating, mine.provisional), count: mine.games});
  return t("rating.your_rank", {rank: mine.rank, count: board.count, rating: ratingWords(mine.rating, false)});
}

/** Links to each rated game's leaderboard (the one shown marked as the current page). */
export function boardLinks(catalog, showing) {
  const rated = catalog.filter((game) => game.rated);
  return h("nav", {class: "board-links", "aria-label": t("rating.boards")}, h("ul", {}, rated.map((game) => h("li", {},
    h("a", {href: `#/leaderboard/${game.name}`, "aria-current": game.name === showing ? "page" : null},
      t("rating.board_link", {game: t(`games:${game.name}.title`)}))))));
}

function boardTable(board) {
  const me = storage.player()?.player_id;
  return h("table", {"aria-labelledby": "board-title"},
    h("thead", {}, h("tr", {}, ["rank", "name", "rating", "games"].map((column) => h("th", {scope: "col"}, t(`rating.${column}`))))),
    h("tbody", {}, board.players.map((entry) => h("tr", {class: entry.player === me ? "me" : null},
      h("td", {}, number(entry.rank)),
      h("td", {}, h("a", {href: `#/player/${entry.player}`}, entry.name ?? t("rating.gone"))),
      h("td", {}, String(entry.rating)), h("td", {}, number(entry.games))))));
}

const WIDTH = 480;
const HEIGHT = 150;
const PAD = {left: 44, right: 10, top: 10, bottom: 18};

/** A player's ratings of each rated game they played: the rating now, a chart of it game after game and the same
 * as a table (the chart's text alternative, folded). */
export function ratingsPart(ratings) {
  useStyle("/web/ratings.css");
  const games = Object.entries(ratings);
  return h("div", {class: "me-ratings"}, h("h3", {}, t("rating.title")), games.length
    ? games.map(([game, mine]) => h("div", {class: "rating-game"},
      h("h4", {}, t("rating.of_game", {game: t(`games:${game}.title`), rating: ratingWords(mine.rating, mine.provisional)})),
      h("p", {class: "me-help"}, t(mine.provisional ? "rating.provisional_help" : "rating.established_help", {count: mine.games})),
      chart(mine.history, t("rating.chart_label", {game: t(`games:${game}.title`)})),
      h("details", {}, h("summary", {}, t("rating.as_table")), historyTable(mine.history))))
    : h("p", {}, t("rating.none")));
}

function chart(history, label) {
  const values = [history[0].before, ...history.map((entry) => entry.after)];
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const step = (WIDTH - PAD.left - PAD.right) / Math.max(1, values.length - 1);
  const x = (index) => PAD.left + index * step;
  const y = (value) => PAD.top + (1 - (value - low) / (high - low || 1)) * (HEIGHT - PAD.top - PAD.bottom);
  const ticks = [...new Set([low, high])].map((value) => s("g", {class: "chart-tick"},
    s("line", {x1: PAD.left - 4, x2: WIDTH - PAD.right, y1: y(value), y2: y(value)}),
    s("text", {x: PAD.left - 6, y: y(value) + 4, "text-anchor": "end"}, String(value))));
  return s("svg", {class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label},
    s("g", {class: "chart-axes"}, ticks),
    s("polyline", {class: "chart-line", points: values.map((value, index) => `${x(index)},${y(value)}`).join(" ")}),
    values.map((value, index) => s("circle", {class: "chart-dot", cx: x(index), cy: y(value), r: 3})));
}

function historyTable(history) {
  return h("table", {}, h("thead", {}, h("tr", {}, ["when", "place", "rating", "change_column"].map((column) =>
    h("th", {scope: "col"}, t(`rating.${column}`))))),
  h("tbody", {}, history.map((entry) => h("tr", {},
    h("td", {}, h("a", {href: `#/replay/${entry.game_id}`}, when(new Date(entry.ended_at)))),
    h("td", {}, t("rating.place_of", {place: entry.place, count: entry.seats})),
    h("td", {}, ratingWords(entry.after, entry.provisional)),
    h("td", {}, signed(entry))))));
}

/** A player's record in The Game, a sentence per player count. */
export function recordPart(record) {
  const counts = Object.entries(record);
  return h("div", {class: "me-record"}, h("h3", {}, t("rating.record_title")), counts.length
    ? h("ul", {}, counts.map(([players, mine]) => h("li", {}, t("rating.record_line", {
      who: t("rating.record_players", {count: Number(players)}), count: mine.games, wins: mine.wins,
      rate: number(mine.win_rate, {style: "percent", maximumFractionDigits: 0}),
      best: t("rating.cards_left", {count: mine.best_score}), streak: mine.streak, longest: mine.best_streak}))))
    : h("p", {}, t("rating.record_none")));
}
