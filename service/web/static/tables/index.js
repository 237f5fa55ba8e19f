// Each game's table, by the game's catalog name. A table module exports `render(root, view, ctx)` (ctx: `send`,
// `name(seat)`), `todo(view)` (what the seat should do now, or null) and `describe(logEntry, name, names, me)` (a move in
// words; `me`: the person's seat, for moves done to them), optionally `seatFacts(seat, view)` and `urgent(logEntry, fresh)` (a move announced at once, assertively; `fresh`:
// the entries read with it). Adding a game's table: one module and one line here (and, for the analysis to mark
// best's choices on it, a function in hints.js).

import * as batailleCorse from "./bataille_corse.js";
import * as ninja from "./ninja.js";
import * as theGame from "./the_game.js";

export const TABLES = {
  "the-game": theGame,
  ninja,
  "bataille-corse": batailleCorse,
};
