"""JSON text (``service/json_text.py``): orjson where it can, ``json`` for what orjson refuses, and the same
documents either way."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from gameclient import bearer
from hypothesis import given
from hypothesis import strategies as st

from service.json_text import dump_bytes

#: JSON documents as the service writes them: string keys, or the integer keys of seat maps.
documents = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8) | st.integers(0, 9), children, max_size=4)
    ),
    max_leaves=20,
)


def as_json_reads(document: Any) -> Any:
    """``document`` as it reads back from ``json`` text: integer keys become strings."""
    if isinstance(document, dict):
        return {str(key): as_json_reads(value) for key, value in document.items()}
    if isinstance(document, list):
        return [as_json_reads(value) for value in document]
    return document


@given(documents)
def test_any_document_reads_back_as_json_writes_it(document: Any) -> None:
    # lone surrogates and integers beyond 64 bits included: those go through json
    assert json.loads(dump_bytes(document)) == as_json_reads(document) == json.loads(json.dumps(document))


def test_a_big_integer_and_a_lone_surrogate_travel_through_a_whole_game(http: FlaskClient) -> None:
    """Neither fits orjson: an option without an upper bound set to 2**70, a name with a lone surrogate. Both are
    stored, shown, and survive the game's changes exactly."""
    created = http.post("/v1/games", json={"game": "ninja", "players": 2, "options": {"max_cards_per_play": 2**70}})
    assert created.status_code == 201
    game, host = f"/v1/games/{created.get_json()['game_id']}", created.get_json()["host_token"]
    odd = http.post(f"{game}/seats", data='{"name": "\\ud800x"}', content_type="application/json")
    assert odd.status_code == 201 and odd.get_json()["name"] == "\ud800x"
    plain = http.post(f"{game}/seats", json={"name": "bob"})
    assert http.post(f"{game}/start", json={"first_seat": 0}, headers=bearer(host)).status_code == 200
    for seat in (odd, plain):
        ready = http.post(f"{game}/actions", json={"type": "ready"}, headers=bearer(seat.get_json()["token"]))
        assert ready.status_code == 200, ready.get_json()
    view = http.get(game, headers=bearer(odd.get_json()["token"])).get_json()
    assert view["options"]["max_cards_per_play"] == 2**70
    assert [seat["name"] for seat in view["seats"]] == ["\ud800x", "bob"]
    assert view["version"] == 5  # two seats, the start, two readies


def test_an_answer_is_utf8_json_ending_with_a_newline(http: FlaskClient) -> None:
    created = http.post("/v1/games", json={"players": 2})
    game = f"/v1/games/{created.get_json()['game_id']}"
    seated = http.post(f"{game}/seats", json={"name": "Zoë 🎲"})
    assert seated.mimetype == "application/json" and seated.data.endswith(b"}\n")
    assert '"name":"Zoë 🎲"'.encode() in seated.data  # UTF-8, not \\u escapes: JSON's own encoding


def test_what_json_refuses_is_still_refused() -> None:
    @dataclass
    class Seat:
        name: str

    for value in (Seat("ann"), datetime.datetime(2026, 1, 1), {1, 2}):
        with pytest.raises(TypeError):
            dump_bytes({"value": value})
