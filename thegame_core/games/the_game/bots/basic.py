"""Reference bots: ``random`` (a floor for tests and benchmarks) and ``greedy`` (plans its turn)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ....errors import WrongGame
from ..actions import Action
from ..views import Observation
from .planning import plan_turn


class RandomBot:
    """Picks one of its turn's legal actions uniformly at random (ending the turn counts as one choice;
    signals, which never move the game on, are not among them)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> list[Action]:
        if type(observation) is not Observation:
            raise WrongGame(Observation.game, observation)
        choices = observation.turn_actions()
        return [self.rng.choice(choices)] if choices else []


class GreedyBot:
    """Plays the required cards with the smallest total jump (backwards moves included), then
    extra cards only while each jumps at most ``cheap``, then ends its turn."""

    def __init__(self, seed: int = 0, cheap: int = 1) -> None:
        self.cheap = cheap

    def act(self, observation: Observation) -> Sequence[Action]:
        if type(observation) is not Observation:
            raise WrongGame(Observation.game, observation)
        if observation.seat is None or not observation.my_turn:
            return []
        need = observation.required_this_turn - observation.placed_this_turn
        plan = plan_turn(observation.hand, observation.tops, need, self.cheap)
        plays = observation.plays(plan)
        places_last_card = observation.draw_pile == 0 and len(plan) == observation.score  # then it wins
        if len(plan) >= need and not places_last_card:
            return [*plays, observation.end_turn()]
        return plays
