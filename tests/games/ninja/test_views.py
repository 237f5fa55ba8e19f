"""Views, observations, logs and the game's self-description: the pinned fields, and no hidden card ever."""

from __future__ import annotations

import json

import pytest

import thegame_core as tg
from thegame_core.games.ninja import GAME, Give, Play, State

from .helpers import run, start

STOCK = [10, 11, 12, 10, 11, 12]
PUBLIC = {"phase", "pile", "ref", "stock", "burned", "give", "completion"}
COMMON = {"game", "status", "outcome", "version", "options", "players", "seats", "current_seat", "waiting_for"}


def test_the_public_view_has_exactly_the_pinned_fields() -> None:
    state = run(start(3, hands={0: [7, 2, 2], 1: [7, 3, 3]}, up={2: [12, 4, 9]}, stock=STOCK), Play(0, 7, 1))
    view = state.public_view()
    json.dumps(view)
    assert set(view) == PUBLIC | COMMON
    assert (view["game"], view["status"], view["outcome"], view["version"]) == ("ninja", "playing", None, 4)
    assert (view["phase"], view["pile"], view["ref"], view["stock"], view["burned"]) == ("play", [7], 7, 26, 0)
    assert (view["current_seat"], view["waiting_for"], view["players"]) == (1, [1], 3)
    assert view["seats"][2] == {"seat": 2, "hand_size": 3, "face_up": [4, 9, 12], "face_down": 3, "ready": True}
    assert view["options"] == state.options.to_dict()


def test_a_seat_view_adds_its_hand_and_legal_actions_without_seat() -> None:
    state = run(start(3, hands={0: [7, 2, 2], 1: [7, 3, 3]}, stock=STOCK), Play(0, 7, 1))
    view = state.view(1)
    assert set(view) == PUBLIC | COMMON | {"seat", "hand", "legal_actions"}
    assert (view["seat"], view["hand"]) == (1, [3, 3, 7])
    assert view["legal_actions"] == [{"type": "play", "value": 7, "count": 1}]
    assert state.view(2)["legal_actions"] == []


def test_give_and_completion_fields() -> None:
    state = run(start(4, hands={0: [13, 13, 2]}, stock=STOCK), Play(0, 13, 2))
    view = state.public_view()
    assert view["give"] == {"giver": 0, "target": None} and view["completion"] == {"value": 13, "placed_by": 0}
    view = run(state, Give(0, 2)).public_view()
    assert view["give"] == {"giver": 0, "target": 2} and view["completion"] is None
    assert view["phase"] == "give" and view["current_seat"] == 2


def secrets(state: State) -> list[tuple[int, ...]]:
    return [cards for cards in state.face_down if cards]


def test_nobody_sees_face_down_cards_or_another_hand() -> None:
    state = start(3, hands={0: [7, 2, 2]}, down={0: [0, 0, 1], 1: [1, 1, 1], 2: [13, 13, 13]}, stock=STOCK)
    for seat in (None, 0, 1, 2):
        observation = state.observe(seat)
        view = observation.to_dict()
        assert view["seats"][0]["face_down"] == 3
        assert "face_down_cards" not in json.dumps(view)
        for other in range(3):
            if other != seat:
                assert "hand" not in view or view.get("seat") != other
        if seat is not None:
            assert observation.hand == state.hands[seat]
        else:
            assert observation.hand == () and "hand" not in view
    text = json.dumps([state.view(seat) for seat in range(3)] + [state.public_view(), state.public_log()])
    assert "13, 13, 13" not in text and "[0, 0, 1]" not in text


def test_observe_checks_the_seat() -> None:
    state = start(3)
    for seat in (3, -1, True, "0"):
        with pytest.raises(tg.GameError):
            state.observe(seat)  # type: ignore[arg-type]
        with pytest.raises(tg.GameError):
            state.view(seat)  # type: ignore[arg-type]
        with pytest.raises(tg.GameError):
            state.legal_actions(seat)  # type: ignore[arg-type]


def test_an_observation_is_a_copy() -> None:
    state = start(3, hands={0: [7, 2, 2]}, stock=STOCK)
    observation = state.observe(0)
    observation.hand = (1, 1, 1)
    assert state.hands[0] == (2, 2, 7)
    assert observation.legal_actions() == state.legal_actions(0)
    assert observation.my_turn and not state.observe(1).my_turn


def test_the_log_is_every_action_in_dict_form() -> None:
    state = run(start(3, hands={0: [7, 2, 2], 1: [7, 3, 3]}, stock=STOCK), Play(0, 7, 1))
    assert state.public_log()[-1] == {"type": "play", "seat": 0, "value": 7, "count": 1}
    assert [entry["type"] for entry in state.public_log()] == ["ready", "ready", "ready", "play"]


def test_lobby_view() -> None:
    view = GAME.lobby_view(4, {"preset": "classic_palace"})
    json.dumps(view)
    assert (view["status"], view["current_seat"], view["waiting_for"], view["version"]) == ("lobby", None, [], 0)
    assert view["phase"] is None and view["stock"] == 54 and len(view["seats"]) == 4
    assert view["options"]["table_mode"] == "play_from_table"
    with pytest.raises(tg.InvalidSetup):
        GAME.lobby_view(7, None)


def test_info_describes_players_options_actions_views_errors_and_outcomes() -> None:
    info = GAME.info
    data = info.to_dict()
    json.dumps(data)
    assert (info.name, info.min_players, info.max_players, info.cooperative) == ("ninja", 2, 6, False)
    assert {action.type for action in info.actions} == {
        "swap",
        "ready",
        "play",
        "pick_up",
        "give",
        "accept",
        "complete",
        "take_face_up",
    }
    assert dict(next(a for a in info.actions if a.type == "play").fields) == {"value": "int", "count": "int"}
    assert set(info.view) == PUBLIC | {"seats"} and set(info.seat_view) == {"hand", "legal_actions"}
    assert set(info.outcome_reasons) == {"out_of_cards", "turn_limit"}
    assert set(info.presets) == {"standard", "classic_palace"}
    for option in info.options:
        assert option.type in ("int", "bool", "str") and option.description
        if option.type == "str":
            assert option.choices and option.default in option.choices
    assert "ninja" in tg.game_names() and tg.get_game("ninja") is GAME
