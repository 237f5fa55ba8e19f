"""The per-worker cache of states by snapshot text: no replay for a state just written or read."""

from __future__ import annotations

import pytest

import thegame_core as tg
from service.state_cache import StateCache


def states(count: int) -> list[tg.GameState]:
    state = tg.new_game("the-game", 2, seed=8)
    found = [state]
    while len(found) < count:
        state = state.apply(state.legal_actions()[0])
        found.append(state)
    return found


def test_a_written_state_is_read_back_without_replay() -> None:
    cache = StateCache()
    state = states(5)[-1]
    text = cache.dump(state)
    assert text == tg.dumps(state)
    assert cache.load(text) is state  # the same object: nothing was replayed


def test_a_state_read_once_is_shared_and_equal_to_a_replay() -> None:
    cache = StateCache()
    text = tg.dumps(states(7)[-1])
    first = cache.load(text)
    assert first == tg.loads(text)
    assert cache.load(text) is first


def test_the_least_recently_used_state_is_dropped_past_capacity() -> None:
    cache = StateCache(capacity=2)
    oldest, middle, newest = states(3)
    texts = [cache.dump(state) for state in (oldest, middle)]
    assert cache.load(texts[0]) is oldest  # now the most recently used
    cache.dump(newest)  # drops `middle`, the least recently used
    assert cache.load(texts[0]) is oldest
    reloaded = cache.load(texts[1])
    assert reloaded == middle and reloaded is not middle  # replayed again


def test_corrupt_snapshots_are_still_refused() -> None:
    cache = StateCache()
    with pytest.raises(tg.CorruptState):
        cache.load('{"format": 1, "game": "the-game"}')
