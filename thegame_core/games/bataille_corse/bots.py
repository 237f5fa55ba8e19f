"""Bataille corse's bots. Each decides from its seat's observation only (the face-up pile, counts, its legal
actions) and is paced: its actions come its reaction's draw (``reaction``) plus ``pause_ms`` after the change it
saw, in the simulator as in the service.

- ``random``: slaps half the time it may, right or wrong; flips otherwise on its turn.
- ``greedy``: slaps when the two top cards make a combination (a double, a suite, a two-card sum or product, a
  poisson); it does not look further down, so it misses sandwiches and longer sums. Never slaps falsely.
- ``best``: slaps whenever any enabled combination holds; never slaps falsely.
- ``risk``: ``best``, and slaps blindly on every new card once the pile (penalty cards included) holds at least
  ``RISK_PILE`` cards: a gamble on the pile's size. ``RiskBot(quick_ms=..., pile=...)`` slaps blindly from a pile
  of that size, and that much sooner than it slaps after looking (a blind slap needs no recognising; so, on a
  large pile, it slaps every card unlooked): ``bench/risk_slapping.py`` measures what that is worth.
- ``sloppy``: ``best``, and slaps falsely on 5% of the cards where no combination holds.

Each slaps at most once per pile version. A flip comes ``FLIP_PAUSE_MS`` after the bot's reaction: people leave a
moment to see the card before turning the next one, which is when the others slap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...protocol import BotFactory
from ...reaction import DEFAULT_LEVEL, Reaction, reaction
from .actions import Action, Flip
from .rules import slappable
from .views import Observation

FLIP_PAUSE_MS = 400
RISK_PILE = 10
SLOPPY_RATE = 0.05


class Bot:
    """Flips on its turn and slaps when ``wants_slap`` says so; paced by its reaction level."""

    def __init__(self, seed: int = 0, level: str = DEFAULT_LEVEL) -> None:
        self.rng = random.Random(seed)
        self.reaction: Reaction = reaction(level)
        self.slapped = -1  # the pile version it last slapped: one slap per card seen, right or wrong

    def wants_slap(self, observation: Observation) -> bool:
        raise NotImplementedError

    def act(self, observation: Observation) -> list[Action]:
        slap = observation.slap
        if slap is not None and slap.pile_version != self.slapped and self.wants_slap(observation):
            self.slapped = slap.pile_version
            return [slap]
        flip = observation.flip
        return [] if flip is None else [flip]

    def pause_ms(self, actions: Sequence[Any]) -> float:
        """A flip comes ``FLIP_PAUSE_MS`` after the reaction; a slap at it."""
        return FLIP_PAUSE_MS if type(actions[0]) is Flip else 0.0

    def delay_ms(self, actions: Sequence[Any]) -> float:
        return max(self.reaction.draw(self.rng) + self.pause_ms(actions), 0.0)


class RandomBot(Bot):
    def wants_slap(self, observation: Observation) -> bool:
        return self.rng.random() < 0.5


class GreedyBot(Bot):
    def wants_slap(self, observation: Observation) -> bool:
        pile = observation.pile
        return len(pile) >= 2 and (
            observation.options.pairs[pile[-1] >> 2][pile[-2] >> 2]
            or (observation.options.sum10 and _value(pile[-1]) + _value(pile[-2]) == 10)
        )


def _value(card: int) -> int:
    """A card's value for a sum: A..9 count, anything else spoils it."""
    rank = card >> 2
    return rank + 1 if rank < 9 else 99


class BestBot(Bot):
    def wants_slap(self, observation: Observation) -> bool:
        return slappable(observation.pile, observation.options)


class RiskBot(BestBot):
    def __init__(self, seed: int = 0, level: str = DEFAULT_LEVEL, quick_ms: float = 0, pile: int = RISK_PILE) -> None:
        super().__init__(seed, level)
        self.quick_ms, self.pile = quick_ms, pile
        self.blind = False  # whether its last slap was blind: on a large pile it slaps every card unlooked

    def wants_slap(self, observation: Observation) -> bool:
        self.blind = len(observation.pile) + observation.penalty_cards >= self.pile
        return self.blind or super().wants_slap(observation)

    def pause_ms(self, actions: Sequence[Any]) -> float:
        return -self.quick_ms if self.blind and type(actions[0]) is not Flip else super().pause_ms(actions)


class SloppyBot(BestBot):
    def wants_slap(self, observation: Observation) -> bool:
        return super().wants_slap(observation) or self.rng.random() < SLOPPY_RATE


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "best": BestBot,
    "risk": RiskBot,
    "sloppy": SloppyBot,
}
