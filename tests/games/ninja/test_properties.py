"""Hypothesis properties over random games: any player count, random options, random legal actions.

The 54 cards are conserved; only its owner ever sees a hand and nobody sees a face-down card or the stock's
order (views and observations do not change when those change); snapshots and replays reproduce the state;
the version grows by one per action; every listed action applies; every game ends within ``max_turns``.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import thegame_core as tg
from thegame_core.games.ninja import GAME, State
from thegame_core.games.ninja.options import OPTIONS

from .helpers import check_conservation, new

PROPERTY_SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHECK_EVERY = 9  # the costly checks (views, snapshots, every listed action) run every 9th step


@st.composite
def option_sets(draw: st.DrawFn) -> dict[str, Any]:
    """Each option left out or set to one of its values; a small max_turns one time in three."""
    options: dict[str, Any] = {}
    for option in OPTIONS:
        if option.name == "max_turns":
            values: list[Any] = [10, 60, 400]
        elif option.name == "max_cards_per_play":
            values = [None, 1, 2, 3]
        elif option.type == "bool":
            values = [True, False]
        else:
            values = list(option.choices or ())
        if draw(st.booleans()):
            options[option.name] = draw(st.sampled_from(values))
    return options


def masked(state: State, seat: int | None) -> State:
    """``state`` with every card ``seat`` may not see replaced: face-down cards, the stock's order, other hands."""
    hands = tuple(hand if other == seat else (0,) * len(hand) for other, hand in enumerate(state.hands))
    deck = state.deck[: state.drawn] + tuple(reversed(state.deck[state.drawn :]))
    return state._replace(face_down=tuple((0,) * len(cards) for cards in state.face_down), hands=hands, deck=deck)


def check_secrets(state: State) -> None:
    """What a seat or a spectator sees depends only on what it may know."""
    assert masked(state, None).public_view() == state.public_view()
    for seat in range(state.players):
        view = state.view(seat)
        assert view["hand"] == list(state.hands[seat])
        assert masked(state, seat).view(seat) == view
        assert all(isinstance(entry["face_down"], int) for entry in view["seats"])
    assert "hand" not in state.public_view()


def check_step(state: State, rng: random.Random) -> None:
    assert tg.loads(tg.dumps(state)) == state
    assert GAME.replay(state.replay_record()) == state
    check_secrets(state)
    for seat in range(state.players):
        for action in state.legal_actions(seat)[:6]:
            after = state.apply(action)
            assert after.version == state.version + 1
            check_conservation(after)
    assert state.waiting_for <= set(state.asking_order())


def choose(rng: random.Random, state: State) -> Any:
    """A random legal action of a random seat asked, the seats waited for four times in five."""
    waiting = sorted(state.waiting_for)
    seat = rng.choice(waiting) if rng.random() < 0.8 else rng.choice(state.asking_order())
    actions = state.legal_actions(seat) or state.legal_actions(rng.choice(waiting))
    if state.phase == "swap" and rng.random() < 0.5:
        return actions[-1]  # ready: swaps may go on forever otherwise
    return rng.choice(actions)


@PROPERTY_SETTINGS
@given(
    players=st.integers(2, 6),
    options=option_sets(),
    seed=st.integers(0, 2**32),
    first_seat=st.integers(0, 5),
    steps_seed=st.integers(0, 2**16),
)
def test_random_games_keep_every_invariant(
    players: int, options: dict[str, Any], seed: int, first_seat: int, steps_seed: int
) -> None:
    state = new(players, seed=seed, options=options, first_seat=first_seat % players)
    rng = random.Random(steps_seed)
    step = 0
    while state.status == "playing":
        assert state.waiting_for and (state.phase == "swap" or state.waiting_for == {state.current_seat})
        if step % CHECK_EVERY == 0:
            check_step(state, rng)
        after = state.apply(choose(rng, state))
        assert after.version == state.version + 1 and state.turns <= after.turns <= after.version
        check_conservation(after)
        state = after
        step += 1
    assert state.outcome is not None and state.turns <= state.options.max_turns
    assert sorted(state.outcome.ranking) == list(range(players)) and state.outcome.winner == state.outcome.ranking[0]
    assert state.waiting_for == frozenset() and state.asking_order() == ()
    check_step(state, rng)
