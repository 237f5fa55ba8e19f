"""The OpenAPI document: committed, current, and complete enough for generated clients."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from gameclient import new_game

import thegame_core as tg
from service.openapi import spec_text

COMMITTED = Path(__file__).resolve().parents[3] / "openapi" / "openapi.json"
OPERATIONS = {
    ("post", "/v1/games"): "create_game",
    ("post", "/v1/games/{game_id}/seats"): "take_seat",
    ("post", "/v1/games/{game_id}/start"): "start_game",
    ("get", "/v1/games/{game_id}"): "get_game",
    ("delete", "/v1/games/{game_id}"): "close_lobby",
    ("post", "/v1/games/{game_id}/plays"): "play_card",
    ("post", "/v1/games/{game_id}/turn/end"): "end_turn",
    ("post", "/v1/games/{game_id}/turns"): "play_turn",
    ("post", "/v1/games/{game_id}/signals"): "send_signal",
    ("get", "/v1/games/{game_id}/log"): "get_log",
    ("get", "/v1/games/{game_id}/analysis"): "get_analysis",
    ("get", "/v1/games/{game_id}/events"): "stream_events",
    ("get", "/v1/health"): "health",
    ("get", "/v1/health/live"): "live",
    ("get", "/v1/health/ready"): "ready",
    ("get", "/v1/games/catalog"): "get_catalog",
    ("get", "/v1/games"): "list_lobbies",
    ("delete", "/v1/games/{game_id}/seats/{seat}"): "leave_seat",
    ("post", "/v1/games/{game_id}/rematch"): "rematch",
    ("post", "/v1/games/{game_id}/actions"): "send_actions",
    ("get", "/v1/daily/{game}/{players}/{day}"): "get_daily_board",
    ("get", "/v1/daily/{game}/{players}/{day}/me"): "get_daily_rank",
    ("post", "/v1/players"): "create_player",
    ("get", "/v1/players/me"): "get_me",
    ("patch", "/v1/players/me"): "rename_me",
    ("delete", "/v1/players/me"): "erase_me",
    ("get", "/v1/players/me/keys"): "list_my_keys",
    ("delete", "/v1/players/me/keys/{key_id}"): "revoke_key",
    ("post", "/v1/players/me/link"): "make_link_code",
    ("post", "/v1/players/link"): "link_device",
    ("get", "/v1/players/me/games"): "list_my_games",
    ("get", "/v1/players/{player_id}"): "get_player",
    ("get", "/v1/players/{player_id}/games"): "list_player_games",
    ("get", "/v1/leaderboards/{game}"): "get_leaderboard",
    ("get", "/v1/leaderboards/{game}/me"): "get_my_leaderboard_rank",
    ("post", "/v1/pairing"): "play_now",
    ("delete", "/v1/pairing"): "stop_pairing",
}


def test_committed_spec_is_current() -> None:
    assert COMMITTED.read_text() == spec_text(), "regenerate: python -m service.openapi > openapi/openapi.json"


def test_served_spec_and_swagger_ui(http: FlaskClient) -> None:
    assert http.get("/v1/openapi.json").get_json() == json.loads(COMMITTED.read_text())
    docs = http.get("/docs")
    assert docs.status_code == 200 and b"swagger" in docs.data.lower()
    for asset in ("swagger-ui.css", "swagger-ui-standalone-preset.js", "swagger-ui-bundle.js"):
        assert f'"/docs/assets/{asset}"'.encode() in docs.data  # no CDN: the page works offline
        served = http.get(f"/docs/assets/{asset}")
        assert served.status_code == 200 and len(served.data) > 1000, asset


def test_every_operation_is_named_secured_and_lists_its_errors() -> None:
    spec = json.loads(COMMITTED.read_text())
    assert spec["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}
    found = {
        (method, path): op
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method != "parameters"
    }
    assert {key: op["operationId"] for key, op in found.items()} == OPERATIONS
    for (method, path), operation in found.items():
        assert "security" in operation, path
        assert ("503" in operation["responses"]) == (path != "/v1/health/live"), path  # liveness never asks the store
        if "{game_id}" in path:
            assert "404" in operation["responses"], path
        if method == "post" and path.startswith("/v1/games/"):  # a change of a game
            assert {"401", "412", "422"} <= set(operation["responses"]), path
    assert found[("post", "/v1/games/{game_id}/plays")]["responses"]["409"]["description"].count("not_your_turn") == 1


def test_generated_clients_get_typed_answers() -> None:
    """A nullable nested object is `{"allOf": [ref], "nullable": true}` (generated clients type it `Model | None`),
    the bodies a request needs are required, and the fields every answer carries are required."""
    spec = json.loads(COMMITTED.read_text())
    schemas = spec["components"]["schemas"]
    mapping = schemas["View"]["discriminator"]["mapping"]
    views = {name: schemas[ref.rsplit("/", 1)[1]] for name, ref in mapping.items()}
    assert set(views) == set(tg.game_names())
    for view in views.values():
        assert view["properties"]["outcome"]["allOf"] == [{"$ref": "#/components/schemas/Outcome"}]
        assert view["properties"]["outcome"]["nullable"] is True
        assert {"game_id", "status", "version", "outcome", "waiting_for", "seats"} <= set(view["required"])
        assert not {"seat", "hand", "legal_actions"} & set(view["required"])
    assert {"piles", "draw_pile", "score"} <= set(views["the-game"]["required"])
    assert not {"legal_plays", "can_end_turn"} & set(views["the-game"]["required"])
    assert set(schemas["Error"]["required"]) == {"code", "status", "message", "error"}
    bodies = {
        op["operationId"]: op["requestBody"]["required"]
        for ops in spec["paths"].values()
        for op in ops.values()
        if "requestBody" in op
    }
    required = {"create_game": True, "take_seat": True, "play_card": True, "send_signal": True, "send_actions": True}
    players = {"create_player": True, "rename_me": True, "link_device": True, "play_now": True}
    assert bodies == {**required, **players, "start_game": False, "end_turn": False, "play_turn": False}


def _missing(spec: dict[str, Any], schema: dict[str, Any], value: Any, where: str) -> list[str]:
    """Where `value` lacks a property that `schema` (resolved through the spec) calls required."""
    if "$ref" in schema:
        return _missing(spec, spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]], value, where)
    if value is None:
        return []
    found = [problem for part in schema.get("allOf", []) for problem in _missing(spec, part, value, where)]
    if schema.get("type") == "array":
        found += [
            problem
            for index, item in enumerate(value)
            for problem in _missing(spec, schema["items"], item, f"{where}[{index}]")
        ]
    if isinstance(value, dict):
        found += [f"{where}.{name}" for name in schema.get("required", []) if name not in value]
        for name, part in schema.get("properties", {}).items():
            found += _missing(spec, part, value[name], f"{where}.{name}") if name in value else []
    return found


def test_real_answers_have_every_field_the_spec_requires(http: FlaskClient) -> None:
    """Play a game over HTTP and check each answer against its documented schema, errors included."""
    spec = json.loads(COMMITTED.read_text())
    answers: list[tuple[str, str, Any]] = []  # (path, method, response)
    game = new_game(http, seed=5)
    answers += [
        ("/v1/games", "post", http.post("/v1/games", json={"players": 1})),
        ("/v1/games/{game_id}", "get", game.view()),
    ]
    answers.append(("/v1/games/{game_id}/seats", "post", game.seat("ann")))
    answers.append(("/v1/games/{game_id}/start", "post", game.start(first_seat=0)))
    answers.append(("/v1/games/{game_id}/signals", "post", game.signal(0, "asc1", "dont_play")))
    while (view := game.view(0).get_json())["status"] == "playing":
        answers.append(("/v1/games/{game_id}", "get", game.view(0)))
        play = view["legal_plays"][0] if not view["can_end_turn"] else None
        answers.append(
            ("/v1/games/{game_id}/plays", "post", game.play(0, play["card"], play["pile"]))
            if play
            else ("/v1/games/{game_id}/turn/end", "post", game.end_turn(0))
        )
    answers += [
        ("/v1/games/{game_id}/log", "get", game.log()),
        ("/v1/games/{game_id}/plays", "post", game.play(0, 2, "asc1")),
    ]
    answers.append(("/v1/health", "get", http.get("/v1/health")))
    assert {response.status_code for _, _, response in answers} == {200, 201, 409}
    for path, method, response in answers:
        schema = spec["paths"][path][method]["responses"][str(response.status_code)]["content"]["application/json"][
            "schema"
        ]
        assert _missing(spec, schema, response.get_json(), path) == [], (path, response.get_json())


def test_openapi_json_at_the_root_redirects_to_the_versioned_document(http: FlaskClient) -> None:
    """Tools that look for ``/openapi.json`` first are sent to ``/v1/openapi.json``, which answers the document."""
    answer = http.get("/openapi.json")
    assert answer.status_code == 301
    assert answer.headers["Location"] == "/v1/openapi.json"
    assert http.get(answer.headers["Location"]).get_json()["info"]["title"] == "Card Table"
