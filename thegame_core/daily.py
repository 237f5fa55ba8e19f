"""The daily deal: for each game, player count and UTC day, one deal, the same for everyone.

``seed = HMAC-SHA256(secret, "daily/v1/<game>/<players>/<YYYY-MM-DD>")``, its first 8 bytes read big-endian and
shifted right by one (63 bits), and the deal is ``new_game(game, players, seed=seed)`` with the game's default
options, seat 0 first. A pure hash of the date would let anyone deal tomorrow's game today; a keyed hash cannot be
computed without the server's secret, yet is fixed by it. The server keeps the secret and publishes each deal's
seed once its day is over (and its SHA-256, ``seed_commitment``, from the start, so anyone can check afterwards
that the seed was not chosen late); ``daily_deal(game, players, day, seed)`` then deals it again, offline. Past
seeds reveal nothing of future ones: HMAC's outputs are independent for other messages.

The player's seat turns with the date (``player_seat``): the day's number since 0001-01-01, modulo the players.
Results compare by ``DailyResult.key``, lower first: The Game by cards left, then turns; a competitive game by
place, then cards left, then turns.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from .bots import create_bot
from .errors import InvalidSetup
from .protocol import AnyState
from .registry import get_game
from .simulate import derive_seed, play_out

FORMAT = "daily/v1"
#: The view fields that count a seat's cards, in the games' public views (hand, face-up and face-down cards, packet).
_CARD_COUNTS = ("hand_size", "face_up", "face_down", "packet")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(day: date | str) -> date:
    """A ``date``, or ``YYYY-MM-DD``; ``InvalidSetup`` for anything else."""
    if isinstance(day, date):
        return day
    try:
        if isinstance(day, str) and _DAY.fullmatch(day):
            return date.fromisoformat(day)
    except ValueError:
        pass
    raise InvalidSetup(f"a day is YYYY-MM-DD, not {day!r}")


def daily_seed(secret: bytes, game: str, players: int, day: date | str) -> int:
    """The deal's seed: an HMAC of the game, the players and the day under ``secret`` (63 bits)."""
    message = f"{FORMAT}/{game}/{players}/{parse_day(day).isoformat()}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:8], "big") >> 1


def seed_commitment(seed: int) -> str:
    """What the server shows during the day: the SHA-256 (hex) of the seed's decimal digits."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def player_seat(players: int, day: date | str) -> int:
    """The seat the player takes on that day: it turns round the table, one seat a day."""
    return parse_day(day).toordinal() % players


@dataclass(frozen=True)
class DailyDeal:
    """One day's deal: the dealt game (default options, seat 0 first) and the seat the player takes."""

    game: str
    players: int
    day: date
    seed: int
    seat: int
    state: AnyState


def daily_deal(
    game: str, players: int, day: date | str, seed: int | None = None, *, secret: bytes | None = None
) -> DailyDeal:
    """The deal of ``game`` for ``players`` on ``day``, from its published ``seed`` (anyone, once the day is over)
    or from the server's ``secret`` (exactly one of them)."""
    if (seed is None) == (secret is None):
        raise InvalidSetup("give the deal's published seed or the server's secret, exactly one")
    when = parse_day(day)
    if seed is None:
        assert secret is not None
        seed = daily_seed(secret, game, players, when)
    state = get_game(game).new_game(players=players, seed=seed, deck=None, options=None, first_seat=0)
    return DailyDeal(game, players, when, seed, player_seat(players, when), state)


@dataclass(frozen=True)
class DailyResult:
    """How one seat did in a finished game: cards left (The Game: the team's), turns, and in a competitive game
    its place (1 is the winner)."""

    cards_left: int
    turns: int
    place: int | None = None

    @property
    def key(self) -> tuple[int, ...]:
        """Lower is better: place first when there is one, then cards left, then turns."""
        ahead = () if self.place is None else (self.place,)
        return (*ahead, self.cards_left, self.turns)

    def to_dict(self) -> dict[str, Any]:
        return {"cards_left": self.cards_left, "turns": self.turns, "place": self.place}


def cards_left(state: AnyState, seat: int) -> int:
    """The cards ``seat`` still holds, as the public view counts them."""
    entry = state.public_view()["seats"][seat]
    return sum(value if isinstance(value, int) else len(value) for name in _CARD_COUNTS if (value := entry.get(name)))


def result_of(state: AnyState, seat: int) -> DailyResult:
    """``seat``'s result in the finished ``state``: The Game's score (its cards left) and turns, or a competitive
    game's place, the seat's cards left and the turns."""
    outcome = state.outcome
    if outcome is None:
        raise InvalidSetup("a result needs a finished game")
    if not outcome.ranking:  # a cooperative game: the team's cards left (The Game's ``score``)
        score = state.score
        return DailyResult(cards_left(state, seat) if score is None else score, state.turns)
    return DailyResult(cards_left(state, seat), state.turns, outcome.ranking.index(seat) + 1)


def bots_result(deal: DailyDeal, bot: str = "best") -> DailyResult:
    """The yardstick: ``bot`` plays every seat of the deal (bot seeds and races drawn from the deal's seed); the
    result of the seat the player would take."""
    game = get_game(deal.game)
    bots = [create_bot(bot, game=deal.game, seed=derive_seed(deal.seed, seat)) for seat in range(deal.players)]
    race = random.Random(derive_seed(deal.seed, "race")) if game.realtime else None
    where = f"{deal.game} daily deal of {deal.day.isoformat()}"
    final = play_out(deal.state, bots, [bot] * deal.players, where, race)
    return result_of(final, deal.seat)
