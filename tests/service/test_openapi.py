"""The OpenAPI document: committed, current, and complete enough for generated clients."""

from __future__ import annotations

import json
from pathlib import Path

from flask.testing import FlaskClient

from service.openapi import spec_text

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
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
    ("get", "/v1/health"): "health",
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
        assert "503" in operation["responses"], path
        if "{game_id}" in path:
            assert "404" in operation["responses"], path
        if method == "post" and path != "/v1/games":
            assert {"401", "412", "422"} <= set(operation["responses"]), path
    assert found[("post", "/v1/games/{game_id}/plays")]["responses"]["409"]["description"].count("not_your_turn") == 1
