"""The ``best`` bot: whole-turn search scored by card counting, pile protection by signals, exact endgame.

A turn is chosen by enumerating every pile configuration the hand can reach this turn
(``turn_states``) and scoring where the piles end (``Scorer``). The score counts the *live*
cards a turn makes unplayable: cards not yet seen (still in the draw pile or other hands) or
still in our hand. A jump over cards that were already played costs nothing; that is the gain
over the plain jump of ``greedy``. When nothing is hidden any more (one player, or every other
hand empty, and the draw pile empty) the rest of the game is solved exactly (``endgame``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import PILES, Action, Play, Signal
from ..rules import ASCENDING, BACKWARDS
from ..views import Observation
from .endgame import TeamSearch
from .turns import Plan, Scorer, best_plan

DONT_PLAY = "dont_play"


@dataclass(frozen=True)
class Params:
    """Weights of ``Scorer`` (in units of one live card made unplayable on one pile).

    ``reach`` is the score an extra play (beyond the minimum) is worth while the draw pile lasts,
    ``reach_empty`` once it is empty; ``losses[k - 1]`` is the cost of a live card going from ``k``
    piles that accept it to ``k - 1`` (losing the last one makes it dead: costly); ``hold`` the
    value of ending the turn holding a pile's backwards card;
    ``signalled`` the cost of moving a pile another seat asked us not to play on;
    ``extra_limit`` the most live cards an extra play may skip to be considered at all;
    ``hand_cost`` the weight of what the kept hand will cost to place later (a one-turn lookahead);
    ``budget`` bounds the nodes of the exact endgame search.
    """

    reach: float = 0.5
    reach_empty: float = 3.0
    losses: tuple[float, ...] = (5.0, 1.0, 1.0, 1.0)
    hold: float = 3.0
    signalled: float = 6.0
    extra_limit: float = 3.0
    hand_cost: float = 0.0
    budget: int = 20_000
    signals: bool = True


class BestBot:
    """Decides from its observation only; seats coordinate through ``dont_play`` signals."""

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        self.params = params or Params()

    def act(self, observation: Observation) -> list[Action]:
        seat = observation.seat
        if seat is None or not observation.my_turn:
            return []
        hand = observation.hand
        tops = observation.tops
        need = observation.required_this_turn - observation.placed_this_turn
        plan = self.exact_plan(observation) or best_plan(hand, tops, need, self.scorer(observation))
        actions: list[Action] = []
        if self.params.signals and observation.options.players > 1:
            actions.extend(signal_changes(observation, plan))
        actions.extend(Play(seat, card, PILES[pile]) for card, pile in plan.plays)
        wins = len(plan.plays) == observation.score
        if len(plan.plays) >= need and not wins:
            actions.append(observation.end_turn())
        return actions

    def exact_plan(self, observation: Observation) -> Plan | None:
        """Nothing is hidden: the draw pile is empty and at most one other seat holds cards, which
        are then exactly the unseen ones. Search the rest of the game; None if no win was found."""
        holders = [seat for seat, size in enumerate(observation.hand_sizes) if size and seat != observation.seat]
        if observation.draw_pile or len(holders) > 1:
            return None
        hands = (observation.hand, tuple(sorted(unseen_cards(observation)))) if holders else (observation.hand,)
        search = TeamSearch(observation.options.min_after_empty, self.params.budget)
        plays = search.solve(hands, observation.tops, observation.placed_this_turn)
        return None if plays is None else Plan.after(observation.hand, observation.tops, plays)

    def scorer(self, observation: Observation) -> Scorer:
        params = self.params
        return Scorer(
            unseen=unseen_cards(observation),
            reach=params.reach if observation.draw_pile else params.reach_empty,
            losses=params.losses,
            hold=params.hold if observation.options.players > 1 or observation.draw_pile else 0.0,
            avoid={
                PILES.index(pile)
                for other, pile, kind in observation.signals
                if other != observation.seat and kind == DONT_PLAY
            },
            signalled=params.signalled,
            extra_limit=params.extra_limit,
            hand_cost=params.hand_cost,
        )


def unseen_cards(observation: Observation) -> frozenset[int]:
    """Cards still to come: neither in our hand nor played (in the draw pile or another hand)."""
    played = {action.card for action in observation.history if isinstance(action, Play)}
    return frozenset(range(2, 100)) - played - set(observation.hand)


def protected_piles(hand: tuple[int, ...], tops: tuple[int, ...]) -> set[int]:
    """Piles whose backwards card (top - 10 ascending, top + 10 descending) we hold."""
    return {pile for pile in range(4) if tops[pile] + (-BACKWARDS if ASCENDING[pile] else BACKWARDS) in hand}


def signal_changes(observation: Observation, plan: Plan) -> list[Action]:
    """Ask the others not to play on piles we can move back after this turn; withdraw stale asks."""
    seat = observation.seat
    assert seat is not None
    wanted = protected_piles(plan.hand, plan.tops) if plan.hand else set()
    current = {PILES.index(pile) for who, pile, kind in observation.signals if who == seat and kind == DONT_PLAY}
    clears: list[Action] = [Signal(seat, PILES[pile], DONT_PLAY, clear=True) for pile in sorted(current - wanted)]
    return clears + [Signal(seat, PILES[pile], DONT_PLAY) for pile in sorted(wanted - current)]
