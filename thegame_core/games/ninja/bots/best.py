"""The ``best`` bot: card counting from the public history, and a determinised search at every choice.

At each choice (which group to play, whom to give the pile, how to answer a give) the bot deals
the cards it cannot see at random, consistently with what is public (``knowledge.Tracker``: the
pile, the burned cards, the piles others picked up, swaps and face-up cards taken), plays every
candidate on each sampled deal with the quick policy of ``sim`` for every seat to the end of the
game, and keeps the candidate that wins most often (the same deals for every candidate; a
candidate that can no longer catch the leader stops being played). The
search runs under the default rules; with other options the bot plays ``sim.pick`` alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ....errors import WrongGame
from ..actions import Action, Complete, Give, Play, Ready, Swap, TakeFaceUp
from ..cards import NINJA
from ..views import Observation
from .knowledge import Tracker, counts
from .sim import PLAY, RESPOND, TARGET, World, pick, run_of, searchable

#: How much a card is worth keeping for the endgame, highest first (the swap phase puts the most
#: valuable cards face up: with ``draw_into_hand`` they come back into the hand once the stock is out).
KEEP = {NINJA: 20, 9: 19, 13: 18, 8: 17, 12: 12, 11: 11, 10: 10, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2, 1: 1}


@dataclass(frozen=True)
class Params:
    """``rollouts`` bounds the playouts of one decision (shared among its candidates, at least
    ``min_worlds`` deals each); a playout stops after ``limit`` moves (then the seat holding the
    fewest cards counts as the winner); ``swap`` puts the most valuable cards face up; without
    ``search`` the bot plays ``sim.pick`` alone (an ablation)."""

    rollouts: int = 120
    min_worlds: int = 8
    limit: int = 400
    swap: bool = True
    search: bool = True


class BestBot:
    """Decides from its observation only: its hand, the public table and the public history."""

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        self.seed = seed
        self.params = params or Params()
        self.tracker: Tracker | None = None

    def act(self, observation: Observation) -> list[Action]:
        if type(observation) is not Observation:
            raise WrongGame(Observation.game, observation)
        legal = observation.legal
        seat = observation.seat
        if not legal or seat is None:
            return []
        search = self.params.search and searchable(observation.options)
        if not search:
            pass  # sim.pick alone: nothing to track
        elif self.tracker is None or (
            self.tracker.options is not observation.options and self.tracker.options != observation.options
        ):
            self.tracker = Tracker(observation)
        else:
            self.tracker.update(observation)
        for action in legal:
            if type(action) is Complete:
                return [action]  # four on top: the pile burns and we lead
        if not observation.my_turn:
            return []
        phase = observation.phase
        if phase == "swap":
            return self.swap(observation, seat)
        if phase == "refill":
            return [self.take(observation)]
        if len(legal) == 1:
            return [legal[0]]
        candidates = self.candidates(observation)
        if len(candidates) == 1:
            return [candidates[0]]
        if search:
            return [self.search(observation, seat, candidates)]
        return [self.heuristic(observation, candidates)]

    # Choices without search -------------------------------------------------------------------
    def swap(self, observation: Observation, seat: int) -> list[Action]:
        """Put the most valuable of the six cards face up (``KEEP``), then say ready."""
        actions: list[Action] = []
        if self.params.swap:
            hand, face_up = list(observation.hand), list(observation.face_up[seat])
            while True:
                low_up = min(face_up, key=KEEP.__getitem__, default=None)
                high_hand = max(hand, key=KEEP.__getitem__, default=None)
                if low_up is None or high_hand is None or KEEP[high_hand] <= KEEP[low_up]:
                    break
                actions.append(Swap(seat, high_hand, low_up))
                hand.remove(high_hand)
                face_up.remove(low_up)
                hand.append(low_up)
                face_up.append(high_hand)
        return [*actions, Ready(seat)]

    def take(self, observation: Observation) -> Action:
        """A refill's face-up card: one that joins a value in hand, else the lowest."""
        hand = counts(observation.hand)
        takes = [action for action in observation.legal if type(action) is TakeFaceUp]
        return max(takes, key=lambda take: (hand[take.value], -take.value))

    def candidates(self, observation: Observation) -> list[Action]:
        """The actions worth comparing: each group value with every copy, each target, accept."""
        best: dict[object, Action] = {}
        most: dict[object, int] = {}
        for action in observation.legal:
            key: object = action
            if type(action) is Play:
                key = ("play", action.value)
                if action.count <= most.get(key, 0):
                    continue
                most[key] = action.count
            best[key] = action
        return list(best.values())

    def heuristic(self, observation: Observation, candidates: list[Action]) -> Action:
        """``sim.pick`` on the real hand; gives go to the seat closest to going out."""
        gives = [action for action in candidates if type(action) is Give and action.target is not None]
        if gives:
            return min(gives, key=lambda give: self._held(observation, give.target or 0))
        plays = {action.value: action for action in candidates if type(action) is Play}
        ref = observation.ref or 0
        if observation.phase == "give":
            for value in (1, 13):
                if value in plays:
                    return plays[value]
        else:
            value = pick(counts(observation.hand), ref, run_of(list(observation.pile)), len(observation.pile))
            if value in plays:
                return plays[value]
        return next((action for action in candidates if type(action) is not Play), candidates[0])

    @staticmethod
    def _held(observation: Observation, seat: int) -> int:
        return observation.hand_sizes[seat] + len(observation.face_up[seat]) + observation.face_down[seat]

    # The search -------------------------------------------------------------------------------
    def search(self, observation: Observation, seat: int, candidates: list[Action]) -> Action:
        tracker = self.tracker
        assert tracker is not None
        params = self.params
        rng = random.Random(self.seed * 1_000_003 + len(observation.history))
        worlds = max(params.min_worlds, params.rollouts // len(candidates))
        players = observation.options.players
        wins = [0] * len(candidates)
        alive = list(range(len(candidates)))
        give = observation.give
        for done in range(1, worlds + 1):
            hands, face_down, stock = tracker.deal_hidden(seat, observation.hand, rng)
            root = World(
                hands,
                [list(cards) for cards in observation.face_up],
                face_down,
                stock,
                list(observation.pile),
                seat,
                tracker.last_layer,
            )
            if give is not None:
                root.giver = give.giver
                root.phase = TARGET if give.target is None else RESPOND
            for index in alive:
                world = root.copy()
                _apply(world, candidates[index])
                world.run(params.limit)
                winner = world.winner
                if winner < 0:  # the move limit: the fewest cards held wins
                    winner = min(range(players), key=world.held)
                wins[index] += winner == seat
            # A candidate that could not catch the leader even by winning every deal left is
            # dropped: the choice is the one all the deals would give, at a fraction of the cost.
            leader = max(wins[index] for index in alive)
            alive = [index for index in alive if wins[index] + worlds - done >= leader]
            if len(alive) == 1:
                break
        return candidates[max(range(len(candidates)), key=wins.__getitem__)]


def _apply(world: World, action: Action) -> None:
    """Play one of the bot's own candidate actions in a sampled world."""
    kind = type(action)
    if kind is Play:
        assert isinstance(action, Play) and action.value is not None
        world.play(action.seat, action.value, action.count)
    elif kind is Give:
        assert isinstance(action, Give) and action.target is not None
        world.give(action.target)
    else:  # a pick-up, or accepting a give
        world.pick_up(action.seat)
    if world.phase == PLAY and world.turn < 0:  # pragma: no cover - the sim always names a seat
        raise AssertionError("no seat to play")
