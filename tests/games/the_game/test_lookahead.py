"""Solo lookahead: fast rollouts over known draw orders, and the choice between candidate turns."""

from __future__ import annotations

import random

import pytest

from thegame_core.games.the_game.bots import lookahead
from thegame_core.games.the_game.bots.lookahead import Rollout, Settings, choose
from thegame_core.games.the_game.bots.turns import Plan

SETTINGS = Settings(samples=4, extra=0, least=2, win_bonus=0.0, prior=0.0)
STUCK = Plan([(2, 0)], (98, 98, 3, 3), (50, 60))  # after it, neither 50 nor 60 has a pile
OPEN_PILES = Plan([(98, 0)], (1, 1, 100, 100), (50, 60))
ALIKE = (Plan([(2, 0)], (1, 1, 100, 100), (50, 60)), Plan([(3, 0)], (1, 1, 100, 100), (50, 60)))  # same future


def test_rollout_wins_an_ordered_deck() -> None:
    rollout = Rollout(range(2, 10), (1, 1, 100, 100), range(10, 100), extra=0, least=2)
    assert rollout.cards_left() == 0


def test_rollout_counts_the_cards_left_when_stuck() -> None:
    rollout = Rollout((50, 60), (98, 98, 3, 3), (70,), extra=0, least=2)
    assert rollout.cards_left() == 3


def test_rollout_moves_back_first() -> None:
    assert Rollout((30, 55), (40, 1, 100, 100), (), extra=0, least=2).cheapest() == (-10, 30, 0)


def test_rollout_plays_a_pair_that_ends_with_a_backwards_move() -> None:
    # 31 is the nearest card on asc1 at 20 (skipping 25); playing 41 first lets 31 follow backwards.
    rollout = Rollout((31, 41), (20, 1, 100, 100), (5, 25, 95, 96), extra=0, least=2)
    assert rollout.cheapest() == (1, 41, 0)


def test_rollout_prefers_skipping_cards_already_played() -> None:
    # 60 on asc1 would skip 50 (still to draw); on desc1 it skips 61..99, all played already.
    rollout = Rollout((10, 60), (30, 30, 100, 100), (50,), extra=0, least=2)
    assert rollout.cheapest() == (0, 60, 2)


def test_choose_prefers_the_turn_that_survives() -> None:
    assert choose([(0.0, STUCK), (1.0, OPEN_PILES)], [70, 80], random.Random(1), SETTINGS) is OPEN_PILES


def test_choose_keeps_the_heuristic_order_on_ties() -> None:
    first, second = ALIKE
    assert choose([(0.0, first), (0.0, second)], [70, 80], random.Random(1), SETTINGS) is first


def test_choose_weighs_the_heuristic_score_by_prior() -> None:
    first, second = ALIKE
    settings = Settings(samples=4, extra=0, least=2, win_bonus=0.0, prior=1.0)
    assert choose([(1.0, first), (0.0, second)], [70, 80], random.Random(1), settings) is second


def shuffles_taken(rng: random.Random, seed: int, cards: list[int]) -> int:
    """How many shuffles of ``cards`` a generator seeded ``seed`` made to reach ``rng``'s state."""
    probe = random.Random(seed)
    for count in range(100):
        if probe.getstate() == rng.getstate():
            return count
        probe.shuffle(list(cards))
    raise AssertionError("state not reached")


@pytest.mark.parametrize(
    ("ranked", "chosen", "shuffles"),
    [
        ([(0.0, STUCK), (1.0, OPEN_PILES)], OPEN_PILES, 4),  # one candidate left after a round: stop
        ([(0.0, ALIKE[0]), (0.0, ALIKE[1])], ALIKE[0], 12),  # a close call gets every round
    ],
    ids=["stops-once-one-is-left", "spends-every-round-on-a-close-call"],
)
def test_race_draws_orders_only_while_the_call_is_close(
    ranked: list[tuple[float, Plan]], chosen: Plan, shuffles: int
) -> None:
    settings = Settings(samples=4, extra=0, least=2, win_bonus=0.0, prior=0.0, rounds=3, gap=1.0)
    rng = random.Random(5)
    assert choose(ranked, [70, 80], rng, settings) is chosen
    assert shuffles_taken(rng, 5, [70, 80]) == shuffles


def test_race_averages_every_round_it_played(monkeypatch: pytest.MonkeyPatch) -> None:
    # A looks better after one round (-1 a draw against 0) but not over both (1 against 0); the
    # prior makes the totals decide: A 1.0 against B 1.25 only if both rounds are averaged.
    first, second = ALIKE
    rounds = {id(first): iter([-4.0, 12.0]), id(second): iter([0.0, 0.0])}
    monkeypatch.setattr(lookahead, "plan_total", lambda plan, draws, settings: next(rounds[id(plan)]))
    settings = Settings(samples=4, extra=0, least=2, win_bonus=0.0, prior=1.0, rounds=2, gap=3.0)
    assert choose([(0.0, first), (1.25, second)], [70, 80], random.Random(1), settings) is first


@pytest.mark.parametrize("change", [{"rounds": 0}, {"gap": -1.0}, {"samples": 0}])
def test_a_race_that_cannot_run_is_refused(change: dict[str, float]) -> None:
    fields = {"samples": 4, "extra": 0, "least": 2, "win_bonus": 0.0, "prior": 0.0, "rounds": 2, "gap": 1.0}
    with pytest.raises(ValueError, match="race"):
        Settings(**(fields | change))  # type: ignore[arg-type]
