// What the game page and the replay both say of a game: each seat's name (distinct: two bots of one level are
// numbered, a name taken twice gets its seat's number) and how the game ended, in the person's language.

import {gameWords, t} from "./i18n.js";

/** Seat `seat`'s name among `seats` (a view's), for the person at `me` (`undefined`: watching): "You" for their own,
 * or with `context` "object" its form inside a sentence ("you"; French "vous"). */
export function seatName(game, seats, seat, me, context) {
  if (seat === me) return t("seat.you", {context});
  const entry = seats[seat];
  if (!entry) return t("seat.number", {number: seat + 1});
  if (entry.bot) {
    const level = gameWords(game, `bots.${entry.bot_name}.name`);
    const same = seats.filter((each) => each.bot && each.bot_name === entry.bot_name);
    return same.length > 1 ? t("seat.bot_numbered", {level, number: same.indexOf(entry) + 1}) : t("seat.bot", {level});
  }
  if (!entry.name) return t("seat.number", {number: seat + 1});
  const twice = seats.filter((each) => !each.bot && each.name === entry.name).length > 1;
  return twice ? t("seat.name_numbered", {name: entry.name, number: seat + 1}) : entry.name;
}

/** The end of `view` (a finished game's) in words: `{headline, reason}`; `name(seat)` names a seat. */
export function outcomeWords(view, name) {
  const outcome = view.outcome;
  const winner = outcome.winner ?? null;
  const headline = winner !== null
    ? t("outcome.won_by", {name: name(winner), context: winner === view.seat ? "you" : undefined})
    : t(`outcome.status.${outcome.status}`);
  const seat = outcome.seat ?? winner;
  const reason = gameWords(view.game, `outcomes.${outcome.reason}`, {
    name: seat === null ? "" : name(seat), context: seat !== null && seat === view.seat ? "you" : undefined,
    limit: view.options?.max_flips ?? view.options?.max_turns ?? ""});
  return {headline, reason};
}
