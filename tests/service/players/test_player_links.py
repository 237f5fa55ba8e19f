"""Another device (issue 28, point 3): a short single-use code gives another device a key of the same player; keys
are listed and revoked; wrong codes are bounded per code and per address."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, error_of
from players_client import Player, from_own_address, seated

CODE = re.compile(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}")


def link(http: FlaskClient, code: str) -> Player:
    return Player(http, created=http.post("/v1/players/link", json={"code": code}))


def test_a_code_gives_another_device_a_key_of_the_same_player(http: FlaskClient) -> None:
    from_own_address(http)
    ann = Player(http, "Ann")
    game = seated(http, ann, players=1)
    made = ann.post("/v1/players/me/link")
    assert made.status_code == 201 and made.headers["Cache-Control"] == "no-store"
    code = made.get_json()["code"]
    assert CODE.fullmatch(code) and made.get_json()["expires_at"].endswith("Z")
    phone = link(http, code.lower().replace("-", " "))  # as typed: case, spaces and dashes do not matter
    assert phone.id == ann.id and phone.key != ann.key and phone.answer["name"] == "Ann"
    assert game.start(first_seat=0).status_code == 200
    assert phone.get(game.url).get_json()["seat"] == 0  # the second device continues the seat
    assert error_of(http.post("/v1/players/link", json={"code": code})) == (410, "link_code_used")


def test_a_code_expires_after_ten_minutes(timed: FlaskClient, clock: FakeClock) -> None:
    from_own_address(timed)
    ann = Player(timed)
    code = ann.post("/v1/players/me/link").get_json()["code"]
    clock.advance(601)
    assert error_of(timed.post("/v1/players/link", json={"code": code})) == (410, "link_code_expired")


def test_keys_are_listed_and_revoked_and_a_device_signs_itself_out(http: FlaskClient) -> None:
    from_own_address(http)
    ann = Player(http)
    phone = link(http, ann.post("/v1/players/me/link").get_json()["code"])
    listed = phone.get("/v1/players/me/keys")
    keys = listed.get_json()["keys"]
    assert listed.status_code == 200 and [key["key_id"] for key in keys] == [
        ann.answer["key_id"],
        phone.answer["key_id"],
    ]
    assert [key["this_device"] for key in keys] == [False, True]
    assert all(key["created_at"] and key["last_used_at"] for key in keys)
    assert ann.key not in listed.get_data(as_text=True) and phone.key not in listed.get_data(as_text=True)
    assert phone.delete(f"/v1/players/me/keys/{ann.answer['key_id']}").status_code == 204
    assert error_of(ann.get("/v1/players/me")) == (401, "invalid_token")
    assert phone.delete(f"/v1/players/me/keys/{phone.answer['key_id']}").status_code == 204  # sign out
    assert error_of(phone.get("/v1/players/me")) == (401, "invalid_token")
    other = Player(http)
    assert error_of(other.delete(f"/v1/players/me/keys/{phone.answer['key_id']}")) == (404, "not_found")


def test_five_wrong_codes_from_an_address_then_429(http: FlaskClient) -> None:
    from_own_address(http)
    ann = Player(http)
    code = ann.post("/v1/players/me/link").get_json()["code"]
    assert error_of(http.post("/v1/players/link", json={"code": ""})) == (422, "validation_error")  # not a try
    guesses = ("2222-2222", "nonsense", "ABCD-EFGH", "3333-3333", "4444-4444")
    wrong = [http.post("/v1/players/link", json={"code": guess}) for guess in guesses if guess != code]
    assert [error_of(answer) for answer in wrong] == [(422, "link_code_invalid")] * 5
    refused = http.post("/v1/players/link", json={"code": code})  # even the right code, from this address
    assert error_of(refused) == (429, "rate_limited") and 0 < int(refused.headers["Retry-After"]) <= 600
    from_own_address(http)
    assert link(http, code).id == ann.id  # another address may still use it


def test_five_wrong_tries_of_one_code_spend_it_whatever_the_address(make_app: Callable[..., Flask]) -> None:
    http = make_app(TRUSTED_PROXY_HEADER="X-Forwarded-For").test_client()
    ann = Player(http)
    code = ann.post("/v1/players/me/link").get_json()["code"]
    first, proof = code.split("-")
    wrong_proof = "2222" if proof != "2222" else "3333"
    for attempt in range(5):
        answer = http.post(
            "/v1/players/link",
            json={"code": f"{first}-{wrong_proof}"},
            headers={"X-Forwarded-For": f"198.51.100.{attempt}"},
        )
        assert error_of(answer) == (422, "link_code_invalid")
    spent = http.post("/v1/players/link", json={"code": code}, headers={"X-Forwarded-For": "198.51.100.99"})
    assert error_of(spent) == (429, "rate_limited") and int(spent.headers["Retry-After"]) > 0


def test_a_key_s_last_use_is_kept_to_the_minute(timed: FlaskClient, clock: FakeClock) -> None:
    ann = Player(timed)

    def last_used() -> str:
        keys = ann.get("/v1/players/me/keys").get_json()["keys"]
        return str(keys[0]["last_used_at"])

    made = last_used()
    clock.advance(30)
    assert last_used() == made  # written at most once a minute: a request costs a read, not a write
    clock.advance(61)
    assert last_used() > made
