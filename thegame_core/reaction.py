"""How long a paced bot takes to act after the change it reacts to: the reaction-time model of real-time games.

A bot of a real-time game (Bataille corse) has a ``Reaction`` level; each time it acts, it draws its delay from
that level with its own seeded random generator: ``delay = reaction.draw(rng)``, counted from the change it reacts
to (a new card on the pile), never from a stale action. The simulator races the seats by these delays (the fastest
action is applied first), and the service paces its bots by the same draw (``Reaction.draw``, with a generator
seeded from the game and what the bot reacts to, so that every server process draws the same wait) and the same
pause a bot adds for the kind of action it sends (``Paced.pause_ms``).

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
from statistics import NormalDist
from typing import Any, Protocol


@dataclass(frozen=True)
class Reaction:
    """A reaction-time level: the mean and standard deviation of a delay, in milliseconds."""

    level: str
    mean_ms: float
    spread_ms: float

    def draw(self, rng: random.Random) -> float:
        """One delay in milliseconds, log-normal with this level's mean and spread (exactly the mean without a
        spread; 0 for a mean of 0)."""
        if self.mean_ms <= 0 or self.spread_ms <= 0:
            return max(self.mean_ms, 0.0)
        return rng.lognormvariate(*self._log_normal())

    def share_within(self, ms: float) -> float:
        """The share of delays drawn that are at most ``ms``."""
        if self.mean_ms <= 0 or self.spread_ms <= 0:
            return float(ms >= self.mean_ms)
        return 0.0 if ms <= 0 else NormalDist(*self._log_normal()).cdf(math.log(ms))

    def _log_normal(self) -> tuple[float, float]:
        """The mean and standard deviation of the delay's logarithm."""
        sigma = math.sqrt(math.log(1 + (self.spread_ms / self.mean_ms) ** 2))
        return math.log(self.mean_ms) - sigma * sigma / 2, sigma


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
    """A bot of a real-time game (``Game.realtime``): it sends ``actions`` its reaction's draw plus
    ``pause_ms(actions)`` after the change it saw (never sooner than at once). The pause is what the kind of action
    adds to a reaction (Bataille corse: a flip waits for the others to see the card; a blind slap skips recognising
    one): the simulator adds it to the bot's own draw (``delay_ms``), the service's clock to its seeded draw at the
    seat's pace."""

    reaction: Reaction

    def act(self, observation: Any) -> Sequence[Any]: ...

    def pause_ms(self, actions: Sequence[Any]) -> float: ...

    def delay_ms(self, actions: Sequence[Any]) -> float: ...
