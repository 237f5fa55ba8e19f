"""Snapshots (``dumps``/``loads``) and replays: exact round trips, and anything else is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

import thegame_core as tg
from thegame_core.games.ninja import GAME, Give, Play, TakeFaceUp

from .helpers import new, run, start


def sample() -> Any:
    state = start(6, hands={0: [13, 5, 2]}, up={0: [7, 7, 10]}, options={"give_optional": True})
    return run(state, Play(0, 5, 1), TakeFaceUp(0, 10), Play(1, state.hands[1][0], 1))


def test_snapshots_and_replays_reproduce_the_state() -> None:
    for state in [new(3, seed=1), start(2), sample(), run(start(3, hands={0: [13, 2, 2]}), Play(0, 13, 1))]:
        text = tg.dumps(state)
        assert tg.loads(text) == state and tg.dumps(tg.loads(text)) == text
        record = state.replay_record()
        json.dumps(record)
        assert set(record) == {"game", "players", "options", "deck", "first_seat", "actions"}
        assert tg.replay(record) == state == GAME.replay(record)
        assert hash(tg.loads(text)) == hash(state)


def test_the_snapshot_is_setup_and_history_in_notation() -> None:
    state = run(start(3, hands={0: [13, 2, 2]}, options={"give_optional": True}), Play(0, 13, 1), Give(0, None))
    data = json.loads(tg.dumps(state))
    assert data["format"] == 1 and data["game"] == "ninja"
    assert data["history"] == ["R0", "R1", "R2", "P0:13:1", "G0"]


def corrupt(data: dict[str, Any]) -> None:
    with pytest.raises(tg.CorruptState):
        tg.loads(json.dumps(data))


def test_anything_else_is_a_corrupt_state() -> None:
    good = json.loads(tg.dumps(sample()))
    corrupt({**good, "format": 2})
    corrupt({**good, "extra": 1})
    corrupt({key: value for key, value in good.items() if key != "deck"})
    corrupt({**good, "deck": good["deck"][::-1][:53]})
    corrupt({**good, "history": [*good["history"], "P0:9:4"]})
    corrupt({**good, "history": ["X0"]})
    corrupt({**good, "history": "R0"})
    corrupt({**good, "history": [1]})
    corrupt({**good, "options": {**good["options"], "six_mode": "whatever"}})
    corrupt({**good, "first_seat": 9})
    with pytest.raises(tg.CorruptState):
        tg.loads("not json")
    with pytest.raises(tg.CorruptState):
        GAME.from_dict({"format": 1, "game": "the-game"})


def test_replay_refuses_broken_records() -> None:
    record = sample().replay_record()
    with pytest.raises(tg.InvalidSetup):
        GAME.replay({key: value for key, value in record.items() if key != "deck"})
    with pytest.raises(tg.InvalidSetup):
        GAME.replay({**record, "actions": "R0"})
    with pytest.raises(tg.GameError):
        GAME.replay({**record, "actions": [*record["actions"], {"type": "accept", "seat": 0}]})


def test_the_snapshot_of_another_games_state_is_refused() -> None:
    other = tg.new_game("the-game", 2, seed=1)
    with pytest.raises(TypeError, match="not a ninja state"):
        GAME.to_dict(other)
    assert tg.get_game("the-game").to_dict(other)["game"] == "the-game"
