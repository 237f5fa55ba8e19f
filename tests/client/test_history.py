"""The client's bot sees over HTTP what an in-process bot sees: the view plus the log's actions up to its version."""

from __future__ import annotations

import random
from typing import Any

import pytest

import thegame_core as tg
from thegame_core.client.seat import history
from thegame_core.client.stream import Backoff, GaveUp

LOBBY_VERSION = 3  # two seats taken and the start: the service's versions run ahead of the core's by this much


def log_entries(state: Any) -> list[dict[str, Any]]:
    """The service's log of ``state``: each action with the version it produced and the service's own flags."""
    return [
        {**entry, "version": LOBBY_VERSION + index, "bot": index % 2 == 0, "auto": False}
        for index, entry in enumerate(state.public_log(), 1)
    ]


@pytest.mark.parametrize("name", ["the-game", "ninja"])
def test_the_observation_from_a_view_and_a_later_log_is_the_seats_observation(name: str) -> None:
    rng = random.Random(name)
    game = tg.get_game(name)
    states = [tg.new_game(name, 2, seed=7)]
    while states[-1].status == "playing" and len(states) < 300:
        state = states[-1]
        seat = rng.choice(sorted(state.waiting_for))
        states.append(state.apply(rng.choice(state.legal_actions(seat))))
    entries = log_entries(states[-1])  # read after the view: it holds later actions too
    for state in states[:: max(1, len(states) // 40)]:
        for seat in range(state.players):
            view = {**state.view(seat), "version": LOBBY_VERSION + state.version}
            actions = history(entries, game.info, view["version"])
            assert game.observation_from_view(view, actions) == state.observe(seat)


def test_backoff_doubles_up_to_its_most_then_gives_up() -> None:
    pauses: list[float] = []
    backoff = Backoff(first=1, most=5, attempts=5, sleep=pauses.append)
    for _ in range(4):
        backoff.wait(OSError("down"))
    backoff.reset()
    backoff.wait(OSError("down"), at_least=7)
    assert pauses == [1, 2, 4, 5, 7]
    for _ in range(4):
        backoff.wait(OSError("down"))
    with pytest.raises(GaveUp):
        backoff.wait(OSError("down"))
