"""The bots registry: creation, legality of every action, silence off-turn, determinism."""

from __future__ import annotations

import pytest

import thegame_core as tg
from thegame_core.bots import bot_names, create_bot

from .helpers import PRESET_NAMES, STUCK_POLICIES, bot_game, check_invariants, new, raises_code

BOTS = ("random", "greedy")


def test_registry_lists_the_reference_bots() -> None:
    assert set(BOTS) <= set(bot_names())


@pytest.mark.parametrize("name", ["", "Greedy", "minimax", "random "])
def test_unknown_bot_is_refused(name: str) -> None:
    """create_bot of an unknown name -> GameError with code unknown_bot."""
    with raises_code("unknown_bot"):
        create_bot(name, seed=1)


def test_unknown_bot_or_game_is_refused() -> None:
    with raises_code("unknown_bot"):
        create_bot("perfect", game="the-game")
    with raises_code("unknown_game"):
        create_bot("greedy", game="chess")


@pytest.mark.parametrize("name", BOTS)
def test_bot_is_silent_for_a_spectator_or_another_seat(name: str) -> None:
    """A bot given a spectator's observation, or a seat whose turn it is not, returns []."""
    state = new(3, seed=2)
    bot = create_bot(name, seed=0)
    assert bot.act(state.observe(None)) == []
    assert bot.act(state.observe(1)) == []
    assert bot.act(state.observe(2)) == []
    assert bot.act(state.observe(0))


@pytest.mark.parametrize("name", BOTS)
def test_bot_is_silent_once_the_game_is_over(name: str) -> None:
    state = bot_game(new(2, seed=6), [create_bot("random", seed=seat) for seat in range(2)])
    assert state.status != "playing"
    for seat in range(2):
        assert create_bot(name, seed=0).act(state.observe(seat)) == []


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_bots_never_return_illegal_actions(name: str, players: int) -> None:
    """Over many games (every preset, both stuck policies) each action a bot returns is legal when applied;
    a game always ends, won or lost, with the invariants intact."""
    for game in range(6):
        options = {"preset": PRESET_NAMES[game % 3], "stuck_policy": STUCK_POLICIES[game // 3]}
        state = new(players, seed=1000 * players + game, options=options)
        bots = [create_bot(name, seed=game * 10 + seat) for seat in range(players)]
        final = bot_game(state, bots, on_state=check_invariants)
        check_invariants(final)
        assert final.status in ("won", "lost")


@pytest.mark.parametrize("name", BOTS)
def test_bots_are_deterministic_for_a_seed(name: str) -> None:
    """Same seed, same observations -> same actions, so a bot game replays exactly."""
    games = [
        bot_game(new(3, seed=77), [create_bot(name, seed=seat) for seat in range(3)]).public_log() for _ in range(2)
    ]
    assert games[0] == games[1]


def test_greedy_bot_plays_a_whole_turn() -> None:
    """The greedy bot returns its plays for the turn, at least the minimum, followed by EndTurn."""
    state = new(3, seed=12)
    actions = create_bot("greedy").act(state.observe(0))
    plays = [action for action in actions if isinstance(action, tg.Play)]
    assert len(plays) >= state.required_this_turn
    assert actions[-1] == tg.EndTurn(0)
    assert state.apply_all(actions).current_seat == 1


def test_random_bot_returns_one_legal_action() -> None:
    state = new(3, seed=12)
    for seed in range(20):
        actions = create_bot("random", seed=seed).act(state.observe(0))
        assert len(actions) == 1
        assert actions[0] in state.legal_actions()
