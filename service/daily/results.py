"""A finished daily game's result: read from the stored game by replaying it, never sent by a client.

Every write of a daily game that is over reaches ``ResultPoster.written`` (the store's after-write hook, so the
writes of requests and of the clock's runner alike), which checks the game (``check``) and posts its result to the
deal's board, once per seat token. ``check`` replays the stored game from its replay record and refuses it unless:

- its deal is the day's: the record's seed is the keyed hash of its game, players and day, and the replayed setup
  (deck, options, first seat) is the one ``thegame_core.daily_deal`` deals;
- it was created on its day (a game on an earlier day's deal is practice: that deal is public by then);
- one person plays it, at the day's seat, the other seats are bots (``best`` in a competitive game), and no seat
  changed hands during play (a seat left is played by a bot, whose moves would count as the person's);
- the replayed game is over.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

import thegame_core as tg
from thegame_core.daily import DailyResult, result_of

from ..records.game_record import CorruptRecord, GameRecord, Seat
from . import Daily
from .board import Deal
from .days import day_of_ms

log = logging.getLogger(__name__)

#: The only bot a person meets in a competitive game's daily deal.
RIVAL = "best"


class Refused(Exception):
    """A game whose result does not go on the board, and why."""


@dataclass(frozen=True)
class Checked:
    """A result that goes on the board: whose (its seat token's digest and chosen name), on which deal, and the
    other seats' bots (The Game's team)."""

    deal: Deal
    digest: str
    name: str
    result: DailyResult
    team: tuple[str, ...]


def check(record: GameRecord, secret: bytes) -> Checked:
    """The result of a finished daily game, checked by replaying it; ``Refused`` says why it does not count."""
    state = record.state
    if record.daily is None or state is None or state.status == "playing":
        raise Refused("not a finished daily game")
    deal = tg.daily_deal(record.game, record.players, record.daily, secret=secret)
    if record.seed != deal.seed:
        raise Refused("not the day's deal")
    if day_of_ms(record.created_at) != deal.day:
        raise Refused("created after its day: practice, not on the board")
    stored, dealt = state.replay_record(), deal.state.replay_record()
    if {**stored, "actions": []} != {**dealt, "actions": []}:
        raise Refused("not the day's deal")
    replayed = tg.replay(stored)
    if replayed.status == "playing":
        raise Refused("the replayed game is not over")
    person = _person(record, deal.seat)
    team = tuple(str(seat.bot) for seat in record.seats if seat is not None and seat.bot is not None)
    board = Deal(record.game, record.players, deal.day)
    return Checked(board, str(person.token), str(person.name), result_of(replayed, deal.seat), team)


def _person(record: GameRecord, seat: int) -> Seat:
    """The one person of the game, at ``seat``, facing bots only (``best`` in a competitive game)."""
    if record.changes_in_play:
        raise Refused("a seat changed hands during play")
    people = [number for number, taken in enumerate(record.seats) if taken is None or taken.bot is None]
    if people != [seat]:
        raise Refused("one person plays a daily game, at the day's seat")
    rivals = {taken.bot for number, taken in enumerate(record.seats) if taken is not None and number != seat}
    if not tg.get_game(record.game).info.cooperative and rivals != {RIVAL}:
        raise Refused(f"a competitive daily game is played against {RIVAL} bots")
    person = record.seats[seat]
    assert person is not None
    if person.token is None or person.name is None:
        raise Refused("the person's seat has no token")
    return person


class ResultPoster:
    """The store's after-write hook: posts the result of each daily game written over, once per token. (The write
    that ends a daily game also keeps it as long as the board links it: ``Settings.ttl_of``.)"""

    def __init__(self, daily: Daily, clock: Callable[[], float]) -> None:
        self.daily = daily
        self.clock = clock

    def written(self, game_id: str, fields: dict[str, str]) -> None:
        """After a write of ``fields``: a daily game that is over posts its result. The change is stored whatever
        happens here: a refusal or a failure is logged, never answered."""
        meta, state = fields.get("meta"), fields.get("state")
        if meta is None or state is None or '"daily":' not in meta:
            return
        try:
            record = GameRecord.load(meta, state)
            if record is not None and record.status not in ("lobby", "playing"):
                self.post(game_id, record)
        except Refused as refused:
            log.info("daily game %s: no result (%s)", game_id, refused)
        except (redis.RedisError, tg.GameError, CorruptRecord) as error:
            log.warning("daily game %s: result not posted (%s: %s)", game_id, type(error).__name__, error)

    def post(self, game_id: str, record: GameRecord) -> bool:
        """Check ``record`` and post its result; ``False`` if its token has one on the deal already."""
        checked = check(record, self.daily.secret.get())
        entry: dict[str, Any] = {"name": checked.name, "game_id": game_id, "team": list(checked.team)}
        now_ms = int(self.clock() * 1000)
        return self.daily.board.post(checked.deal, checked.digest, now_ms, checked.result, entry)
