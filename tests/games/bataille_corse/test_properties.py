"""Invariants over random games (hypothesis): cards are conserved, the pile version never decreases, no view shows
a packet's card, a stale slap changes nothing but the version and the log, the seats' estimates add up to 1 and the
winner's is 1; snapshots read back, and the largest
game fits a stored record, with and without a collection window."""

from __future__ import annotations

import json
import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import thegame_core as tg
from thegame_core.games.bataille_corse import GAME, NAMES, Slap, State
from thegame_core.games.bataille_corse.options import OPTIONS

from .helpers import largest_game

OPTION_VALUES = {
    option.name: st.sampled_from(option.choices)
    if option.choices
    else st.booleans()
    if option.type == "bool"
    else st.integers(option.min or 0, min(option.max or 10, 10))
    for option in OPTIONS
    if option.name not in ("max_flips", "slap_window_ms")
}
OPTION_VALUES["slap_window_ms"] = st.sampled_from([0, 40, 1000])
OPTION_SETS = st.fixed_dictionaries({}, optional=OPTION_VALUES)


def random_action(rng: random.Random, state: State, now: int) -> object:
    """A random listed action received at ``now``, a slap on an older version (stale) now and then, or the
    window's judge once it is due (or, now and then, early)."""
    due = state.timer()
    if due is not None and (due.due <= now or not state.asking_order() or rng.random() < 0.2):
        return due.action
    if state.pile_version and rng.random() < 0.1:
        return Slap(rng.randrange(state.players), rng.randrange(state.pile_version), at=now)
    seats = state.asking_order()
    seat = rng.choice(seats) if rng.random() < 0.5 or state.window is not None else state.current
    return GAME.received(rng.choice(state.legal_actions(seat) or state.legal_actions(state.current)), now)


def strings_in(view: object) -> set[str]:
    return set(json.dumps(view).replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split())


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32), options=OPTION_SETS)
def test_invariants_over_random_games(players: int, seed: int, options: dict[str, object]) -> None:
    rng = random.Random(seed)
    state = tg.new_game("bataille-corse", players, seed=seed, options={**options, "max_flips": 400})
    assert isinstance(state, State)
    total = state.options.cards
    now = 0
    for _ in range(1500):
        if state.status != "playing":
            break
        now += rng.randrange(60)
        after = state.apply(random_action(rng, state, now))
        assert sum(map(len, after.packets)) + len(after.pile) + len(after.penalty) == total
        assert after.pile_version >= state.pile_version
        assert sum(after.estimate(seat) for seat in range(players)) == pytest.approx(1)
        if after.outcome is not None and after.outcome.reason == "all_cards":
            assert after.estimate(after.outcome.winner) == 1
        if after.results(1) == ["stale"]:
            assert after._replace(history=state.history) == state
            assert after.public_log()[:-1] == state.public_log()
        for seat in (None, *range(players)):
            view = state.public_view() if seat is None else state.view(seat)
            shown = strings_in(view) & set(NAMES)
            assert shown <= {NAMES[card] for card in state.pile}, "a view shows a card off the face-up pile"
        state = after
    assert tg.loads(tg.dumps(state)) == state


def test_a_snapshot_reads_on_from_an_earlier_state_with_late_slaps() -> None:
    state = GAME.new_game(players=3, seed=11)
    for _ in range(30):
        state = state.apply(state.legal_actions(state.current)[0])
    earlier = state
    state = state.apply(Slap(2, state.pile_version - 3)).apply(Slap(1, state.pile_version - 1))
    text = tg.dumps(state)
    assert text.endswith('C3B"}')
    assert tg.loads(text) == state and tg.loads(text, (tg.dumps(earlier), earlier)) == state
    assert [entry.get("result") for entry in state.public_log()[-2:]] == ["stale", "stale"]


@pytest.mark.parametrize("window_ms", [0, 100])
def test_the_largest_game_fits_a_stored_record(window_ms: int) -> None:
    """10,000 flips at 8 seats, every seat that may slap slapping every card that makes a combination (one valid,
    the others stale) and now and then a card that makes none (``largest_game``): under 60,000 bytes, with a 100 ms
    collection window too (each window's slaps keep their receive times)."""
    options = {"penalty_count": 0, "slap_window_ms": window_ms}
    ((_, state),) = deque(largest_game(GAME.new_game(players=8, seed=4, options=options)), maxlen=1)
    assert state.outcome is not None and state.outcome.reason == "flip_limit" and state.flips == 10_000
    text = tg.dumps(state)
    assert state.version > 30_000 and len(text) < 60_000, (state.version, len(text))
    assert tg.loads(text) == state
