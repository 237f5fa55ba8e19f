"""No client input causes a 5xx or damages a game: random JSON and headers on every route."""

from __future__ import annotations

from typing import Any

from flask import Flask
from gameclient import SORTED_DECK, bearer, started
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        "card",
        "pile",
        "plays",
        "end_turn",
        "kind",
        "clear",
        "name",
        "seat",
        "bot",
        "first_seat",
        "players",
        "seed",
        "deck",
        "options",
        "game",
    ]
)
BODIES = JSON | st.dictionaries(FIELDS, JSON, max_size=5)
PATHS = st.sampled_from(["", "/seats", "/start", "/plays", "/turn/end", "/turns", "/signals", "/log"])
WHO = st.sampled_from(["none", "host", "seat", "forged"])
HEADER_CHARS = st.characters(min_codepoint=32, max_codepoint=255)  # what HTTP headers can carry
HEADERS = st.dictionaries(
    st.sampled_from(["If-Match", "If-None-Match", "Idempotency-Key"]), st.text(HEADER_CHARS, max_size=30)
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(body=BODIES, path=PATHS, who=WHO, headers=HEADERS, raw=st.none() | st.binary(max_size=40))
def test_random_requests_never_fail_the_server(
    app: Flask, body: Any, path: str, who: str, headers: dict[str, str], raw: bytes | None
) -> None:
    http = app.test_client()
    game = started(http, players=1, deck=SORTED_DECK)
    token = {"none": None, "host": game.host, "seat": game.tokens[0], "forged": "x" * 43}[who]
    sent = bearer(
        token, **{name: value.encode("latin-1", "replace").decode("latin-1") for name, value in headers.items()}
    )
    url = f"{game.url}{path}"
    response = http.post(url, data=raw, headers=sent) if raw is not None else http.post(url, json=body, headers=sent)
    assert response.status_code < 500, response.get_json()
    if response.status_code >= 400:
        assert response.get_json()["error"]
    view = game.view(0).get_json()
    assert len(view["hand"]) + view["draw_pile"] + (98 - view["score"]) == 98


@FUZZ
@given(body=BODIES, raw=st.none() | st.binary(max_size=40))
def test_random_creations_never_fail_the_server(app: Flask, body: Any, raw: bytes | None) -> None:
    http = app.test_client()
    response = (
        http.post("/v1/games", data=raw, content_type="application/json")
        if raw is not None
        else http.post("/v1/games", json=body)
    )
    assert response.status_code in (201, 400, 422), response.get_json()
