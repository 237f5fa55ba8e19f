"""Bataille corse's bots: legal actions only, decisions from the observation alone, deterministic for a seed,
``best`` and ``greedy`` never slap falsely, and the simulator's race picks the fastest valid slap."""

from __future__ import annotations

import pytest

import thegame_core as tg
from thegame_core.games.bataille_corse import GAME, State
from thegame_core.games.bataille_corse.bots import BOTS, FLIP_PAUSE_MS, BestBot, RiskBot
from thegame_core.reaction import LEVELS
from thegame_core.simulate import Setup, play_game, simulate

from .helpers import position

NAMES = sorted(BOTS)


def hidden_twins(seed: int) -> tuple[State, State]:
    """Two 2-player deals that differ only in cards nobody has seen: the last card of each packet trade places."""
    deck = list(GAME.shuffled_deck(seed))
    twin = deck[:]
    twin[50], twin[51] = deck[51], deck[50]
    return GAME.new_game(players=2, deck=deck), GAME.new_game(players=2, deck=twin)


@pytest.mark.parametrize("name", NAMES)
def test_decisions_and_delays_depend_only_on_the_observation(name: str) -> None:
    compared = 0
    for seed in range(6):
        state, twin = hidden_twins(seed)
        mine, mine_twin, rival = BOTS[name](seed), BOTS[name](seed), BOTS["best"](1)
        while state.status == "playing" and state.observe(0) == twin.observe(0):
            actions = list(mine.act(state.observe(0)))
            assert actions == list(mine_twin.act(twin.observe(0)))
            if actions:
                assert mine.delay_ms(actions) == mine_twin.delay_ms(actions)  # type: ignore[attr-defined]
            compared += 1
            actions = actions or list(rival.act(state.observe(1)))
            state, twin = state.apply_all(actions), twin.apply_all(actions)
    assert compared >= 60, compared


@pytest.mark.parametrize("name", NAMES)
def test_bots_send_only_legal_actions_and_are_deterministic(name: str) -> None:
    for players in (2, 5):
        setup = Setup("bataille-corse", players, (name,), seed=3, options={"max_flips": 2000})
        first, again = play_game(setup, 0), play_game(setup, 0)  # a refused action raises RuntimeError
        assert first == again


@pytest.mark.parametrize("name", ["best", "greedy"])
def test_best_and_greedy_never_slap_falsely(name: str) -> None:
    summary = simulate(Setup("bataille-corse", 3, (name,), seed=5), 20)
    assert summary.stats.get("slaps:valid", 0) > 100 and summary.stats.get("slaps:false", 0) == 0


def test_greedy_looks_at_the_two_top_cards_only() -> None:
    sandwich = position(2, {0: "2S 3S", 1: "8H"}, "7H 2C 7D", current=1)
    assert BOTS["greedy"](0).act(sandwich.observe(0)) == []
    assert BOTS["best"](0).act(sandwich.observe(0)) == sandwich.legal_actions(0)


def test_the_faster_valid_slap_wins_the_race() -> None:
    """best (fast) against best (normal): the same play, only the delays differ; the fast one wins most piles."""
    summary = simulate(Setup("bataille-corse", 2, ("best",), seed=1, reactions=("fast", "normal")), 150)
    wins = {entry.seat: entry.rate for entry in summary.seat_wins or ()}
    assert wins[0] > 0.6, wins


def test_reaction_draws_have_the_level_mean() -> None:
    bot = BestBot(7, "fast")
    draws = [bot.reaction.draw(bot.rng) for _ in range(4000)]
    assert abs(sum(draws) / len(draws) - LEVELS["fast"].mean_ms) < 10 and min(draws) > 0


def test_a_flip_waits_a_pause_after_the_reaction_and_a_slap_does_not() -> None:
    double = position(2, {0: "2S", 1: "8H"}, "7H 7D", current=0)
    plain = position(2, {0: "2S", 1: "8H"}, "7H 2D", current=0)
    bot = BestBot(3)
    assert bot.pause_ms(bot.act(double.observe(0))) == 0 and bot.pause_ms(bot.act(plain.observe(0))) == FLIP_PAUSE_MS


def test_a_quick_risk_slapper_slaps_every_card_of_a_large_pile_blindly_and_sooner() -> None:
    """From a pile of ``pile`` cards it slaps every card without looking, ``quick_ms`` sooner than it would after
    looking; below it, it plays as ``best`` at ``best``'s pace."""
    small = position(2, {0: "2S", 1: "8H"}, "7H 7D", current=1)
    large = position(2, {0: "2S", 1: "8H"}, "3C 7H 2D", current=1)  # no combination, but 3 cards
    bot = RiskBot(3, quick_ms=200, pile=3)
    seen = bot.act(small.observe(0))
    assert seen == small.legal_actions(0) and bot.pause_ms(seen) == 0
    blind = bot.act(large.observe(0))
    assert blind == large.legal_actions(0) and bot.pause_ms(blind) == -200
    draws = [RiskBot(seed, quick_ms=200, pile=3) for seed in range(200)]
    for rival in draws:
        rival.act(large.observe(0))
    quick = [rival.delay_ms(blind) for rival in draws]
    assert min(quick) >= 0 and abs(sum(quick) / len(quick) - (LEVELS["normal"].mean_ms - 200)) < 20


def test_unknown_levels_and_levels_for_a_turn_based_game_are_refused() -> None:
    with pytest.raises(tg.InvalidSetup):
        simulate(Setup("bataille-corse", 2, ("best",), reactions=("instant",)), 1)
    with pytest.raises(tg.InvalidSetup):
        simulate(Setup("ninja", 2, ("best",), reactions=("fast",)), 1)


def test_a_seat_further_away_wins_fewer_games() -> None:
    """best against best at the same level: the seat whose slaps arrive 150 ms later wins the minority of games."""
    summary = simulate(Setup("bataille-corse", 2, ("best",), seed=1, latency_ms=(0, 150)), 150)
    wins = {entry.seat: entry.rate for entry in summary.seat_wins or ()}
    assert wins[0] > 0.6, wins


@pytest.mark.parametrize("name", NAMES)
def test_the_simulator_races_through_collection_windows(name: str) -> None:
    """Every bot plays whole games with a window: its slaps are gathered and judged (a refused action raises)."""
    setup = Setup("bataille-corse", 3, (name,), seed=2, options={"slap_window_ms": 100, "max_flips": 1000})
    summary = simulate(setup, 4)
    assert summary.stats.get("slaps:valid", 0) > 10 and summary.stats.get("slaps:stale", 0) > 0


def test_latencies_are_checked() -> None:
    for latency in ((0, -1), (0, 1, 2), (0.5,)):
        with pytest.raises(tg.InvalidSetup):
            simulate(Setup("bataille-corse", 2, ("best",), latency_ms=latency), 1)  # type: ignore[arg-type]
    with pytest.raises(tg.InvalidSetup):
        simulate(Setup("ninja", 2, ("best",), latency_ms=(80,)), 1)
