"""Ratings with openskill's Plackett-Luce model, shown on a familiar scale, and one game rated from its ranking.

A rating is openskill's ``(mu, sigma)``: the skill it believes in and how unsure it is. It is shown as one number,
openskill's ordinal ``mu - 3 sigma`` (a skill the player is very likely above) scaled by ``SCALE`` and moved to
``NEW``: a new player (``mu`` 25, ``sigma`` 25/3, ordinal 0) shows 1500. ``SCALE`` is 30 points per unit of skill,
so that between two established players a gap of about 400 points means 10 to 1 odds, as in Elo (Plackett-Luce's
odds are ``exp(gap / c)`` with ``c = sqrt(2 beta^2 + ...)``, about 5.9 once both ``sigma`` are small: 10 to 1 is a
gap of 13.6, times 30 is 407). Since the ordinal subtracts the uncertainty, a player's number rises as their games
teach the model who they are: an average player settles some 500 points above a new one.

A rating is provisional (shown "1500?") while its uncertainty on the shown scale, ``SCALE * sigma``, is at least
``PROVISIONAL_SPREAD``, as lichess shows "1500?" while its rating deviation is 110 or more. Openskill's ``sigma``
shrinks more slowly than Glicko's deviation, so the same 110 (``sigma`` 3.67) would take some 70 two-player games;
160 (``sigma`` 5.33, two thirds of a new player's) takes a median of 19 two-player games, 27 at four seats and 40 at
six (a pool of 60 players of normally spread skills at random tables, seed 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
NEW = 1500
SCALE = 30
PROVISIONAL_SPREAD = 160
#: The ordinal's ``z``: openskill's default, three standard deviations below the believed skill.
Z = 3.0


@dataclass(frozen=True)
class Rating:
    """One player's rating of one game: openskill's ``mu`` and ``sigma``."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def points(self) -> float:
        """The ordinal on the shown scale, unrounded: what leaderboards sort by."""
        return float(MODEL.rating(self.mu, self.sigma).ordinal(Z, SCALE, NEW))

    @property
    def shown(self) -> int:
        return round(self.points)

    @property
    def provisional(self) -> bool:
        return SCALE * self.sigma >= PROVISIONAL_SPREAD

    def to_dict(self) -> dict[str, Any]:
        """As answers and the history show it: the number, the flag, and the model's two values."""
        return {"rating": self.shown, "provisional": self.provisional, "mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rating:
        return cls(float(data["mu"]), float(data["sigma"]))


def places(ranking: Sequence[int], seats: int) -> list[int]:
    """Each seat's place (1 is first) from a game's ranking (seats, best first: ``Outcome.ranking``)."""
    if sorted(ranking) != list(range(seats)):
        raise ValueError(f"a rated game ranks each of its {seats} seats once: {list(ranking)}")
    place = [0] * seats
    for position, seat in enumerate(ranking):
        place[seat] = position + 1
    return place


def rate(ranking: Sequence[int], before: Sequence[Rating]) -> list[Rating]:
    """Each seat's rating after a game whose ``ranking`` (seats, best first) the seats ``before`` played: Ninja's
    finishing order, Bataille corse's elimination order. Each seat is a team of one."""
    teams = [[MODEL.rating(rating.mu, rating.sigma)] for rating in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in places(ranking, len(before))])
    return [Rating(team[0].mu, team[0].sigma) for team in after]
