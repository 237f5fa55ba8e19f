"""Reference bots: ``random`` (a floor for tests and benchmarks) and ``greedy`` (lowest group first)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ....errors import WrongGame
from ..actions import Accept, Action, Complete, Give, PickUp, Play, Ready, TakeFaceUp
from ..cards import NINJA
from ..views import Observation

#: The special cards (rule book, "The cards"): kept by ``greedy`` for when nothing else is legal.
SPECIALS = frozenset((1, 6, 8, 9, 13, NINJA))


def spend_order(value: int) -> int:
    """The order ``greedy`` plays its specials in when it has to: by value, NINJA last."""
    return 14 if value == NINJA else value


class RandomBot:
    """One legal action uniformly at random, one at a time; an optional out-of-turn action (a
    completion, a counter or a NINJA of another seat's turn) is declined as often as any one choice."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> list[Action]:
        if type(observation) is not Observation:
            raise WrongGame(Observation.game, observation)
        legal = observation.legal
        if not legal:
            return []
        if observation.my_turn:
            return [self.rng.choice(legal)]
        index = self.rng.randrange(len(legal) + 1)  # the last index declines
        return [legal[index]] if index < len(legal) else []


def lowest_group(plays: Sequence[Play]) -> Play | None:
    """The lowest plain group (all the copies allowed), else the first special in ``spend_order``;
    ``None`` when ``plays`` holds no group (a blind play only)."""
    groups = [play for play in plays if play.value is not None]
    if not groups:
        return None
    plain = [play for play in groups if play.value not in SPECIALS]
    pool = plain or groups
    return min(pool, key=lambda play: (spend_order(play.value or 0), -play.count))


class GreedyBot:
    """Plays its lowest legal group (every copy), keeping the specials (1, 6, 8, 9, 13, NINJA) for when
    nothing else is legal; always completes when it can; picks up only when forced; gives the pile
    to the next seat; counters a give when it can (1s first: nobody takes the pile); takes its lowest
    face-up card; swaps nothing."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> list[Action]:
        if type(observation) is not Observation:
            raise WrongGame(Observation.game, observation)
        legal = observation.legal
        seat = observation.seat
        if not legal or seat is None:
            return []
        completes = [action for action in legal if type(action) is Complete]
        if completes:
            return [completes[0]]
        if not observation.my_turn:
            return []  # counters out of turn and NINJAs out of turn are declined
        phase = observation.phase
        if phase == "swap":
            return [Ready(seat)]
        if phase == "refill":
            return [min((a for a in legal if type(a) is TakeFaceUp), key=lambda a: a.value)]
        plays = [action for action in legal if type(action) is Play]
        if phase == "give":
            gives = [action for action in legal if type(action) is Give and action.target is not None]
            if gives:
                players = observation.options.players
                return [min(gives, key=lambda give: ((give.target or 0) - seat) % players)]
            if plays:  # the target: counter with the lowest counter, every copy
                return [min(plays, key=lambda play: (play.value or 0, -play.count))]
            return [next(action for action in legal if type(action) in (Accept, Give))]
        group = lowest_group(plays)
        if group is not None:
            return [group]
        if plays:
            return [plays[0]]  # the blind play of play_from_table
        return [next(action for action in legal if type(action) is PickUp)]
