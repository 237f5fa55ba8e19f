"""The ``best`` bot: whole-turn search scored by card counting, pile protection by signals, endgame search.

A turn is chosen by enumerating the pile configurations the hand can reach this turn
(``turns.reachable``) and scoring where the piles end (``turns.Scorer``). The score counts the
*live* cards a turn makes unplayable: cards not yet seen (in the draw pile or other hands) or kept
in hand. A jump over cards already played costs nothing; that is the gain over the plain jump of
``greedy``. Once the draw pile is empty, the unseen cards are exactly the other hands: the rest of
the game is searched (``endgame``), exactly when one other hand is left, over sampled deals of the
unseen cards when more are. Both seats of a two-player endgame see the same puzzle and solve it
the same way, which is how they coordinate without talking. Alone, the only hidden thing is the
order of the draw pile: close calls between turns are settled by rollouts over sampled draw orders
(``lookahead``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ....errors import WrongGame
from ..actions import PILES, Action, Play, Signal
from ..hidden import deal, unseen_cards
from ..views import Observation
from . import lookahead
from .endgame import TeamSearch
from .turns import Plan, Scorer, backwards_card, best_plan, ranked_plans

DONT_PLAY = "dont_play"


@dataclass(frozen=True)
class Params:
    """Weights of ``Scorer`` (in units of one live card made unplayable on one pile).

    ``reach`` is the score an extra play (beyond the minimum) is worth while the draw pile lasts,
    ``reach_empty`` once it is empty; ``losses[k - 1]`` is the cost of a live card going from ``k``
    piles that accept it to ``k - 1`` (losing the last one makes it dead: costly); ``hold`` the
    value of ending the turn holding a pile's backwards card with other seats (none: it was harmful),
    ``solo_hold`` alone while the draw pile lasts;
    ``signalled`` the cost of moving a pile another seat asked us not to play on;
    ``extra_limit`` the most live cards an extra play may skip to be considered at all;
    ``budget`` bounds the nodes of the exact endgame search, ``world_budget`` those of each of the
    ``worlds`` sampled when something is hidden; the search starts once the draw pile holds at most
    ``horizon`` cards.

    Alone with cards to draw, the ``candidates`` best-scored turns within ``margin`` of the best are
    compared by ``lookahead`` in a race of up to ``rounds`` rounds of ``samples`` sampled draw
    orders; after each round, candidates more than ``gap`` cards worse than the best drop out.
    Rollouts play on extra cards that skip at most ``rollout_extra`` live cards, a win counts
    ``win_bonus`` cards, and ``prior`` times the heuristic score is added to the rollout value.
    """

    reach: float = 0.5
    reach_empty: float = 3.0
    losses: tuple[float, ...] = (5.0, 1.0, 1.0, 1.0)
    hold: float = 0.0
    solo_hold: float = 3.0
    signalled: float = 6.0
    extra_limit: float = 3.0
    budget: int = 20_000
    horizon: int = 0
    worlds: int = 8
    world_budget: int = 3_000
    signals: bool = True
    samples: int = 16
    candidates: int = 10
    margin: float = 4.0
    rollout_extra: int = 0
    win_bonus: float = 10.0
    prior: float = 0.5
    rounds: int = 3
    gap: float = 1.5


class BestBot:
    """Decides from its observation only; seats coordinate through ``dont_play`` signals."""

    def __init__(self, seed: int = 0, params: Params | None = None) -> None:
        self.seed = seed
        self.params = params or Params()

    def act(self, observation: Observation) -> list[Action]:
        if type(observation) is not Observation:
            raise WrongGame(Observation.game, observation)
        seat = observation.seat
        if seat is None or not observation.my_turn:
            return []
        need = observation.required_this_turn - observation.placed_this_turn
        plan = self.endgame_plan(observation) or self.turn_plan(observation, need)
        actions: list[Action] = []
        if self.params.signals and observation.options.players > 1:
            actions.extend(signal_changes(observation, plan))
        actions.extend(Play(seat, card, PILES[pile]) for card, pile in plan.plays)
        wins = len(plan.plays) == observation.score
        if len(plan.plays) >= need and not wins:
            actions.append(observation.end_turn())
        return actions

    def endgame_plan(self, observation: Observation) -> Plan | None:
        """Search the rest of the game once at most ``horizon`` cards are left to draw.

        The unseen cards are the other hands and the draw pile. With the pile empty and one other
        hand left, nothing is hidden and the search is exact; otherwise the unseen cards are dealt at
        random into ``worlds`` (other hands of the right sizes, then a draw order) and we take the
        turn most worlds win with (stopping early once a majority agrees, or when half find no win).
        None if no winning line was found.
        """
        seat = observation.seat
        if observation.draw_pile > self.params.horizon or seat is None:
            return None
        sizes = observation.hand_sizes
        holders = [size for step in range(1, len(sizes)) if (size := sizes[(seat + step) % len(sizes)])]
        exact = len(holders) <= 1 and not observation.draw_pile
        worlds = 1 if exact else self.params.worlds
        search_budget = self.params.budget if exact else self.params.world_budget
        unseen = sorted(unseen_cards(observation))
        rng = self.rng(observation)
        votes: Counter[tuple[tuple[int, int], ...]] = Counter()
        for tried in range(worlds):
            if (votes and votes.most_common(1)[0][1] * 2 > worlds) or (tried * 2 >= worlds and not votes):
                break  # a majority is reached, or half the worlds found no win
            rng.shuffle(unseen)
            plays = solve_world(observation, deal(unseen, holders), tuple(unseen[sum(holders) :]), search_budget)
            if plays is not None:
                votes[tuple(plays)] += 1
        if not votes:
            return None
        return Plan.after(observation.hand, observation.tops, list(votes.most_common(1)[0][0]))

    def turn_plan(self, observation: Observation, need: int) -> Plan:
        """The best-scored turn; alone with cards to draw, close calls are settled by lookahead."""
        params = self.params
        scorer = self.scorer(observation)
        if observation.options.players > 1 or not observation.draw_pile or params.samples <= 0:
            return best_plan(observation.hand, observation.tops, need, scorer)
        ranked = ranked_plans(observation.hand, observation.tops, need, scorer, params.candidates)
        close = [(score, plan) for score, plan in ranked if score - ranked[0][0] <= params.margin]
        if len(close) == 1:
            return close[0][1]
        rng = self.rng(observation)
        unseen = sorted(scorer.unseen)
        settings = lookahead.Settings(
            samples=params.samples,
            extra=params.rollout_extra,
            least=observation.options.min_per_turn,
            win_bonus=params.win_bonus,
            prior=params.prior,
            rounds=params.rounds,
            gap=params.gap,
        )
        return lookahead.choose(close, unseen, rng, settings)

    def rng(self, observation: Observation) -> random.Random:
        """Randomness for sampling what is hidden, from the bot's seed and the moment of the game:
        the bot stays deterministic and stateless, and never draws on the hidden cards themselves."""
        return random.Random(f"{self.seed}/{len(observation.history)}")

    def hold(self, observation: Observation) -> float:
        """The value of keeping a pile's backwards card: alone only while there is a draw pile."""
        if observation.options.players > 1:
            return self.params.hold
        return self.params.solo_hold if observation.draw_pile else 0.0

    def scorer(self, observation: Observation) -> Scorer:
        params = self.params
        return Scorer(
            unseen=unseen_cards(observation),
            reach=params.reach if observation.draw_pile else params.reach_empty,
            losses=params.losses,
            hold=self.hold(observation),
            avoid={
                PILES.index(pile)
                for other, pile, kind in observation.signals
                if other != observation.seat and kind == DONT_PLAY
            },
            signalled=params.signalled,
            extra_limit=params.extra_limit,
        )


def solve_world(
    observation: Observation, others: list[tuple[int, ...]], draw: tuple[int, ...], budget: int
) -> list[tuple[int, int]] | None:
    """Our plays this turn in a winning line of one world (other hands in turn order, draw order)."""
    options = observation.options
    search = TeamSearch(options.min_per_turn, options.min_after_empty, budget)
    return search.solve(
        (observation.hand, *others),
        observation.tops,
        draw,
        observation.placed_this_turn,
        observation.required_this_turn,
    )


def protected_piles(hand: tuple[int, ...], tops: tuple[int, ...]) -> set[int]:
    """Piles whose backwards card (top - 10 ascending, top + 10 descending) we hold."""
    return {pile for pile in range(4) if backwards_card(pile, tops[pile]) in hand}


def signal_changes(observation: Observation, plan: Plan) -> list[Action]:
    """Ask the others not to play on piles we can move back after this turn; withdraw stale asks."""
    seat = observation.seat
    assert seat is not None
    wanted = protected_piles(plan.hand, plan.tops) if plan.hand else set()
    current = {PILES.index(pile) for who, pile, kind in observation.signals if who == seat and kind == DONT_PLAY}
    clears: list[Action] = [Signal(seat, PILES[pile], DONT_PLAY, clear=True) for pile in sorted(current - wanted)]
    return clears + [Signal(seat, PILES[pile], DONT_PLAY) for pile in sorted(wanted - current)]
