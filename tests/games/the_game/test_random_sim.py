"""Random simulation in the spirit of OpenSpiel's random_sim_test: thousands of whole games, invariants checked at
every step, and the serialization round trip at the end.

30 configurations (1..5 players x 3 presets x 2 stuck policies), each with 67 random-bot games (2,010 in all; the
random bot returns one action at a time, and signals from random seats are mixed in) and 10 greedy-bot games
(300 in all, long games that reach the empty draw pile and the end game).
"""

from __future__ import annotations

import itertools
import random

import pytest

import thegame_core as tg
from thegame_core.bots import create_bot

from .helpers import PRESET_NAMES, STUCK_POLICIES, check_invariants, check_rules, check_transition

CONFIGS = list(itertools.product(range(1, 6), PRESET_NAMES, STUCK_POLICIES))
RANDOM_GAMES = 67
GREEDY_GAMES = 10


def check_step(state: tg.State, deck: list[int]) -> None:
    """Invariants of one state, its agreement with the rules restated in the helpers, and every listed action
    applies and does what the spec says."""
    check_invariants(state, deck)
    check_rules(state)
    for action in state.legal_actions():
        child = state.apply(action)
        check_transition(state, action, child, deck)
        assert 0 <= child.score <= state.score
        assert child.status in ("playing", "won", "lost")


def simulate(state: tg.State, bot_name: str, rng: random.Random, signal_rate: float) -> tg.State:
    """Play one game to its end with one bot per seat, checking every step; return the final state."""
    deck = list(state.replay_record()["deck"])
    bots = [create_bot(bot_name, seed=rng.randrange(2**32)) for _ in range(state.players)]
    while state.status == "playing":
        check_step(state, deck)
        if rng.random() < signal_rate:
            signals = [a for a in state.legal_actions(rng.randrange(state.players)) if isinstance(a, tg.Signal)]
            actions: list[tg.Action] = [rng.choice(signals)]
        else:
            actions = list(bots[state.current_seat].act(state.observe(state.current_seat)))
        assert actions, "a bot always acts on its turn"
        for action in actions:
            after = state.apply(action)
            check_transition(state, action, after, deck)  # the version grows by one per action, among others
            state = after
    check_step(state, deck)
    assert tg.loads(tg.dumps(state)) == state
    assert tg.replay(state.replay_record()) == state
    return state


@pytest.mark.parametrize(("players", "preset", "policy"), CONFIGS)
def test_random_simulation(players: int, preset: str, policy: str) -> None:
    """Whole games with the random and the greedy bot end (won or lost) with every invariant intact."""
    rng = random.Random(f"{players}-{preset}-{policy}")
    options = {"preset": preset, "stuck_policy": policy}
    outcomes = []
    for bot_name, games, signal_rate in (("random", RANDOM_GAMES, 0.05), ("greedy", GREEDY_GAMES, 0.0)):
        for _ in range(games):
            first_seat = rng.randrange(players)
            start = tg.new_game("the-game", players, seed=rng.randrange(2**32), options=options, first_seat=first_seat)
            final = simulate(start, bot_name, rng, signal_rate)
            assert final.status in ("won", "lost")
            if final.status == "lost":
                assert final.outcome is not None and final.outcome.seat == final.current_seat
                assert final.hands[final.current_seat], "only a seat holding cards loses"
            outcomes.append(final.status)
    assert len(outcomes) == RANDOM_GAMES + GREEDY_GAMES
