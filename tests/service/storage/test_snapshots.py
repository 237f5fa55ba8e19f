"""The per-worker cache of states by snapshot text: no replay for a state just written or read, and a text
written by another worker read on from the newest state held of its game."""

from __future__ import annotations

import pytest

import thegame_core as tg
from service.records.state_cache import StateCache
from tests.games.the_game.helpers import notations_parsed, random_states


def states(count: int) -> list[tg.AnyState]:
    state = tg.new_game("the-game", 2, seed=8)
    found = [state]
    while len(found) < count:
        state = state.apply(state.legal_actions()[0])
        found.append(state)
    return found


def test_a_written_state_is_read_back_without_replay() -> None:
    cache = StateCache()
    state = states(5)[-1]
    text = cache.dump(state, "g")
    assert text == tg.dumps(state)
    assert cache.load(text, "g") is state  # the same object: nothing was replayed


def test_a_state_read_once_is_shared_and_equal_to_a_replay() -> None:
    cache = StateCache()
    text = tg.dumps(states(7)[-1])
    first = cache.load(text, "g")
    assert first == tg.loads(text)
    assert cache.load(text, "g") is first


def test_the_least_recently_used_state_is_dropped_past_capacity() -> None:
    cache = StateCache(capacity=2)
    oldest, middle, newest = states(3)
    texts = [cache.dump(state, "g") for state in (oldest, middle)]
    assert cache.load(texts[0], "g") is oldest  # now the most recently used
    cache.dump(newest, "g")  # drops `middle`, the least recently used
    assert cache.load(texts[0], "g") is oldest
    reloaded = cache.load(texts[1], "g")
    assert reloaded == middle and reloaded is not middle  # replayed again


def test_corrupt_snapshots_are_still_refused() -> None:
    cache = StateCache()
    with pytest.raises(tg.CorruptState):
        cache.load('{"format": 1, "game": "the-game"}', "g")


def read(cache: StateCache, text: str, game: str) -> tuple[tg.AnyState, int]:
    """``cache.load(text, game)`` and how many action notations it parsed."""
    return notations_parsed(lambda: cache.load(text, game))


def test_a_text_written_elsewhere_is_read_on_from_the_newest_state_held_of_its_game() -> None:
    states = random_states(30, seed=2)
    cache = StateCache()
    cache.dump(states[20], "game-a")  # this worker wrote change 20
    assert read(cache, tg.dumps(states[22]), "game-a") == (states[22], 2)  # another wrote 21 and 22
    assert read(cache, tg.dumps(states[22]), "game-a") == (states[22], 0)  # held now
    assert read(cache, tg.dumps(states[30]), "game-a") == (states[30], 8)  # from 22, the newest held
    assert read(cache, tg.dumps(states[25]), "game-a") == (states[25], 25)  # older than the newest: replayed
    assert read(cache, tg.dumps(states[26]), "game-b") == (states[26], 26)  # nothing held of that game


def test_a_dropped_state_costs_a_whole_replay_never_a_wrong_state() -> None:
    states = random_states(12, seed=3)
    other = random_states(3, seed=4)
    cache = StateCache(capacity=2)
    cache.dump(states[5], "game-a")
    cache.dump(other[1], "game-b")
    cache.dump(other[2], "game-b")  # game-a's state is dropped
    assert read(cache, tg.dumps(states[12]), "game-a") == (states[12], 12)
    # a wrong name for the game: its newest state is not one this text continues
    assert read(cache, tg.dumps(states[11]), "game-b") == (states[11], 11)
