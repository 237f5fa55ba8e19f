"""How long a paced bot takes to act after the change it reacts to: the reaction-time model of real-time games.

A bot of a real-time game (Bataille corse) has a ``Reaction`` level; each time it acts, it draws its delay from
that level with its own seeded random generator: ``delay = reaction.draw(rng)``, counted from the change it reacts
to (a new card on the pile), never from a stale action. The simulator races the seats by these delays (the fastest
action is applied first), and the service's pacing can draw the same delays.

Levels (milliseconds; a log-normal draw with this mean and standard deviation: never negative, with the long tail
of slow reactions people have): ``easy`` 600 +- 150, ``normal`` 450 +- 100, ``fast`` 350 +- 80. ``fast`` is 100 ms
quicker than ``normal`` on average. People need about 250 ms to react to a light; recognising a combination on
the pile and slapping takes longer, which these levels reflect.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Reaction:
    """A reaction-time level: the mean and standard deviation of a delay, in milliseconds."""

    level: str
    mean_ms: float
    spread_ms: float

    def draw(self, rng: random.Random) -> float:
        """One delay in milliseconds, log-normal with this level's mean and spread."""
        sigma = math.sqrt(math.log(1 + (self.spread_ms / self.mean_ms) ** 2))
        return rng.lognormvariate(math.log(self.mean_ms) - sigma * sigma / 2, sigma)


LEVELS = {
    "easy": Reaction("easy", 600, 150),
    "normal": Reaction("normal", 450, 100),
    "fast": Reaction("fast", 350, 80),
}
DEFAULT_LEVEL = "normal"


def reaction(level: str) -> Reaction:
    """The level named ``level`` (``ValueError`` naming the levels otherwise)."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown reaction level {level!r}; levels: {', '.join(LEVELS)}") from None


class Paced(Protocol):
    """A bot of a real-time game: it says how long after the change it saw it sends ``actions``."""

    reaction: Reaction

    def act(self, observation: Any) -> Sequence[Any]: ...

    def delay_ms(self, actions: Sequence[Any]) -> float: ...
