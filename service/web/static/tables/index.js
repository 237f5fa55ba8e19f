// Each game's table, by the game's catalog name. A table module exports `render(root, view, ctx)` (ctx: `send`,
// `name(seat)`, `game`: the game's catalog entry), `todo(view)` (what the seat should do now, or null) and `describe(logEntry, name, names, me)` (a move in
// words; `me`: the person's seat, for moves done to them), optionally `seatFacts(seat, view)`, `urgent(logEntry, fresh)` (a move announced at once, assertively; `fresh`:
// the entries read with it), `happened(before, view, name)` (the change in a sentence over the table),
// `hint(root, actions, mark)` (best's actions marked on the table it drew, for the analysis: `mark(element, order)`)
// and `unmount(root)` (the page leaves the table: what `render` set up outside `root` goes), and `stylesheet` (its own
// rules' address, beside it: `tableReady` loads them before its first drawing). Adding a game's table: one module,
// its style sheet and one line here.

import {useStyle} from "../dom.js";
import * as batailleCorse from "./bataille_corse.js";
import * as ninja from "./ninja.js";
import * as theGame from "./the_game.js";

export const TABLES = {
  "the-game": theGame,
  ninja,
  "bataille-corse": batailleCorse,
};

/** Resolves when game `game`'s table can draw styled (its style sheet applies); at once for a game with no table. */
export async function tableReady(game) {
  if (TABLES[game]) await useStyle(TABLES[game].stylesheet);
}
