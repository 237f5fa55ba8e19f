"""POST /v1/games/{id}/rematch: the next game with the same people, each seat's new token sealed to its old one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, bearer, error_of, new_game, started, stuck_deck
from lobbies import Lobbies

from service.errors import ApiError
from service.play import commands, sealing
from service.play.incoming import Incoming
from service.play.tokens import Caller, new_token
from service.storage.store import GameStore, game_key


@pytest.fixture
def http(make_app: Callable[..., Flask]) -> FlaskClient:
    """Bots left alone may play a game to its end inside one request here (the per-request cap of bot work
    is test_clock's subject)."""
    return make_app(BOT_DECISIONS=100_000).test_client()


def lost(http: FlaskClient, **body: Any) -> GameClient:
    """A one-player game of The Game, lost after one turn."""
    game = started(http, players=1, deck=stuck_deck(), **body)
    assert game.turn(0, [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")]).get_json()["status"] == "lost"
    return game


def rematch(game: GameClient, **headers: str) -> Any:
    return game.http.post(f"{game.url}/rematch", headers=bearer(game.host, **headers))


def store_of(http: FlaskClient) -> GameStore:
    store: GameStore = http.application.extensions["service"].store
    return store


def writes_to(store: GameStore, at_write: Callable[[str, int], None] | None = None) -> list[tuple[str, int]]:
    """Every write of ``store`` from now on, in order: the game and its TTL (0: deleted); ``at_write`` is told of
    each as it is made."""
    written: list[tuple[str, int]] = []
    told = store.on_write

    def record(game_id: str, ttl: int) -> None:
        written.append((game_id, ttl))
        if at_write is not None:
            at_write(game_id, ttl)
        if told is not None:
            told(game_id, ttl)

    store.on_write = record
    return written


def test_x25519_matches_rfc_7748() -> None:
    scalar = bytes.fromhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4")
    point = bytes.fromhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")
    expected = "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"
    assert sealing.x25519(scalar, point).hex() == expected


def test_only_the_token_opens_what_was_sealed_to_its_key() -> None:
    token, other, secret = new_token(), new_token(), new_token()
    sealed = sealing.seal_for(sealing.public_key(token), secret, "context")
    assert sealing.open_with(token, sealed, "context") == secret
    assert sealing.open_with(other, sealed, "context") != secret
    assert sealing.open_with(token, sealed, "another context") != secret
    assert sealing.seal_for(sealing.public_key(token), secret, "context") != sealed  # a fresh key each time


def test_the_seat_finds_its_new_token_in_its_view_and_the_new_game_starts(http: FlaskClient) -> None:
    game = lost(http)
    version = game.view(0).get_json()["version"]
    assert game.view(0).get_json()["rematch"] is None
    response = rematch(game)
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"/v1/games/{body['game_id']}"
    seat_view = game.view(0).get_json()
    assert seat_view["version"] == version + 1
    assert seat_view["rematch"]["game_id"] == body["game_id"]
    assert game.view().get_json()["rematch"] == {"game_id": body["game_id"]}
    assert game.view(Authorization=f"Bearer {game.host}").get_json()["rematch"] == {"game_id": body["game_id"]}
    token = seat_view["rematch"]["token"]
    assert token != game.tokens[0]
    new_view = http.get(f"/v1/games/{body['game_id']}", headers=bearer(token)).get_json()
    assert new_view["seat"] == 0 and new_view["status"] == "playing"
    assert new_view["seats"][0]["name"] == "player0" and new_view["options"] == game.view(0).get_json()["options"]
    assert http.get(f"/v1/games/{body['game_id']}", headers=bearer(game.tokens[0])).status_code == 401
    assert http.get(f"/v1/games/{body['game_id']}", headers=bearer(body["host_token"])).status_code == 200
    assert error_of(http.get(f"/v1/games/{body['game_id']}", headers=bearer(game.host))) == (401, "invalid_token")


def test_the_store_keeps_no_token(http: FlaskClient) -> None:
    game = lost(http)
    body = rematch(game).get_json()
    token = game.view(0).get_json()["rematch"]["token"]
    client = http.application.extensions["service"].store.client
    for game_id in (game.game_id, body["game_id"]):
        stored = b"".join(client.hvals(f"tg:{{{game_id}}}:game"))
        assert token.encode() not in stored and body["host_token"].encode() not in stored


def test_names_bots_options_and_flags_carry_over(http: FlaskClient) -> None:
    game = new_game(http, players=3, options={"preset": "expert"}, public=True, spectators=False)
    game.seat("ann")
    assert game.seat("robo", token=game.host, bot="greedy").status_code == 201
    game.seat("cat")
    assert game.start(first_seat=0).status_code == 200
    for seat in (0, 2):  # the people leave: the bots play it to its end
        assert http.delete(f"{game.url}/seats/{seat}", headers=bearer(game.tokens[seat])).status_code == 204
    assert game.view(Authorization=f"Bearer {game.host}").get_json()["status"] in ("won", "lost")
    body = rematch(game).get_json()
    new = http.get(f"/v1/games/{body['game_id']}", headers=bearer(body["host_token"])).get_json()
    assert new["status"] == "lobby"  # the seats left open are free in the rematch
    assert [(seat["name"], seat["bot_name"]) for seat in new["seats"]] == [
        (None, None),
        ("robo", "greedy"),
        (None, None),
    ]
    assert (new["public"], new["spectators"], new["options"]["min_per_turn"]) == (True, False, 3)


def finished_public_game(lobbies: Lobbies) -> GameClient:
    """A finished public game whose people left it to the bots: its rematch is a public lobby, listed."""
    game = lobbies.create(players=2)
    game.fill()
    assert game.start().status_code == 200
    for seat in (0, 1):
        lobbies.http.delete(f"{game.url}/seats/{seat}", headers=bearer(game.tokens[seat]))
    return game


def test_a_public_rematch_waiting_for_players_is_listed(lobbies: Lobbies) -> None:
    body = rematch(finished_public_game(lobbies)).get_json()
    assert lobbies.listed() == [body["game_id"]]


def test_who_and_when(http: FlaskClient) -> None:
    lobby = new_game(http, players=1)
    assert error_of(rematch(lobby)) == (409, "game_not_started")
    playing = started(http, players=1, seed=2)
    assert error_of(rematch(playing)) == (409, "game_not_over")
    game = lost(http)
    url = f"{game.url}/rematch"
    assert error_of(http.post(url)) == (401, "invalid_token")
    assert error_of(http.post(url, headers=bearer(game.tokens[0]))) == (403, "forbidden")
    assert error_of(rematch(game, **{"If-Match": '"1"'})) == (412, "stale_version")
    first = rematch(game).get_json()
    again = rematch(game)
    assert error_of(again) == (409, "rematch_exists") and first["game_id"] in again.get_json()["message"]


@pytest.mark.parametrize("same_key", [True, False])
def test_a_retried_rematch_answers_the_same_game_once(http: FlaskClient, same_key: bool) -> None:
    game = lost(http)
    first = rematch(game, **{"Idempotency-Key": "rematch-1"})
    again = rematch(game, **{"Idempotency-Key": "rematch-1" if same_key else "rematch-2"})
    if same_key:
        assert (again.status_code, again.get_json()) == (201, first.get_json())
    else:
        assert error_of(again) == (409, "rematch_exists")


def test_the_new_game_is_stored_before_the_finished_game_names_it(http: FlaskClient) -> None:
    """A stream of the finished game hands its reader the rematch the moment it is named: a reader that follows it
    at once (the documented browser client does) must find the new game."""
    game = lost(http)
    store = store_of(http)
    found: list[int] = []
    told = store.after_write

    def follow(game_id: str, fields: dict[str, str]) -> None:
        record = store.load(game_id).record()
        if record.rematch is not None:
            found.append(store.client.exists(game_key(record.rematch["game_id"])))
        if told is not None:
            told(game_id, fields)

    store.after_write = follow
    assert rematch(game).status_code == 201
    assert found == [1]


def test_a_refused_rematch_leaves_no_game_behind(lobbies: Lobbies) -> None:
    game = finished_public_game(lobbies)
    store = store_of(lobbies.http)
    written = writes_to(store)
    assert error_of(rematch(game, **{"If-Match": '"1"'})) == (412, "stale_version")
    drawn = written[0][0]
    assert written == [(drawn, written[0][1]), (drawn, 0)] and written[0][1] > 0  # stored, then deleted
    assert not store.client.exists(game_key(drawn)) and lobbies.listed() == []
    made = rematch(game).get_json()["game_id"]
    assert lobbies.listed() == [made]


@pytest.mark.parametrize("refused", [False, True])
def test_a_public_rematch_is_listed_only_once_its_game_names_it(lobbies: Lobbies, refused: bool) -> None:
    """Listed before, a stranger could take a seat in a lobby deleted the moment after (its rematch refused): the
    list's index is read as the finished game names the new one, or as the new one is deleted."""
    game = finished_public_game(lobbies)
    assert sum(lobbies.index_sizes().values()) == 0
    listed_then: list[int] = []

    def written(game_id: str, ttl: int) -> None:
        if game_id == game.game_id or ttl == 0:
            listed_then.append(sum(lobbies.index_sizes().values()))

    writes_to(store_of(lobbies.http), written)
    answer = rematch(game, **({"If-Match": '"1"'} if refused else {}))
    assert listed_then == [0]
    assert lobbies.listed() == ([] if refused else [answer.get_json()["game_id"]])


def test_a_rematch_whose_write_is_sent_again_answers_its_game(http: FlaskClient) -> None:
    """The client library sends a write again when its answer was lost: the second try finds the finished game
    naming this request's game already, and answers it (refusing it would delete a named game)."""
    finished = store_of(http).load(lost(http).game_id).record()
    plan = commands.Rematch()
    plan.draw(finished, 0)
    named = finished.with_rematch({"game_id": plan.game_id, "tokens": plan.sealed})
    incoming = Incoming("game", None, None, None, None, None, None, 0.0, "127.0.0.1")
    record, answer = commands.rematch(incoming, plan)(named, Caller("host"))
    assert record is named and (answer.status, answer.token) == (201, plan.host_token)
    other = commands.Rematch()  # another request's: refused
    other.draw(finished, 0)
    with pytest.raises(ApiError) as refused:
        commands.rematch(incoming, other)(named, Caller("host"))
    assert refused.value.error == "rematch_exists" and plan.game_id in refused.value.message


@pytest.mark.parametrize("same_key", [True, False])
def test_two_rematches_at_once_leave_one_game(lobbies: Lobbies, same_key: bool) -> None:
    """The second request has drawn and stored its game when the first names its own: it answers the first's
    game (the same Idempotency-Key) or ``rematch_exists``, and deletes the game it drew."""
    game = finished_public_game(lobbies)
    store = store_of(lobbies.http)
    written = writes_to(store)
    answers: list[Any] = []

    def meanwhile(game_id: str, fields: dict[str, str]) -> None:
        store.after_write = None  # once: the second request's game is stored, the first runs to its end now
        answers.append(rematch(game, **{"Idempotency-Key": "rematch-1"}))

    store.after_write = meanwhile
    second = rematch(game, **{"Idempotency-Key": "rematch-1" if same_key else "rematch-2"})
    first = answers[0].get_json()["game_id"]
    if same_key:
        assert (second.status_code, second.get_json()["game_id"]) == (201, first)
    else:
        assert error_of(second) == (409, "rematch_exists")
    drawn = [game_id for game_id, ttl in written if ttl > 0 and game_id not in (game.game_id, first)]
    assert len(drawn) == 1 and (drawn[0], 0) in written and not store.client.exists(game_key(drawn[0]))
    assert store.client.exists(game_key(first)) and lobbies.listed() == [first]


def test_a_rematch_asked_as_the_clock_ends_the_game_answers_retry(make_app: Callable[..., Flask]) -> None:
    """The host asked while the game was still being played as stored: the clock ends it in that request, which
    then has no new game ready; it answers ``catching_up`` (retry) and leaves nothing, and the retry makes it."""
    clock = FakeClock()
    http = make_app(BOT_DECISIONS=100_000, CLOCK=clock).test_client()
    game = new_game(http, players=2, game="ninja", seed=3)
    game.seat("ann")
    assert game.seat("robo", token=game.host, bot="greedy").status_code == 201
    assert game.start(first_seat=0).status_code == 200
    assert http.delete(f"{game.url}/seats/0", headers=bearer(game.tokens[0])).status_code == 204
    clock.advance(100_000)  # the bots' every move is due, none written yet
    written = writes_to(store_of(http))
    assert error_of(rematch(game)) == (503, "catching_up")
    assert written == [(game.game_id, written[0][1])]  # what fell due, and no new game
    assert game.view(Authorization=f"Bearer {game.host}").get_json()["status"] == "finished"
    assert rematch(game).status_code == 201
