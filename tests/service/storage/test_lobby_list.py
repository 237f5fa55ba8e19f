"""GET /v1/games?status=lobby: open public lobbies, newest first, stable cursors, an index that stays bounded."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from gameclient import bearer, error_of, new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lobbies import Lobbies
from redis.cluster import key_slot

from service.storage.lobby_index import MAX_LIMIT


def test_public_lobbies_newest_first_with_their_free_seats(lobbies: Lobbies) -> None:
    older = lobbies.create(players=3, options={"preset": "expert"})
    lobbies.create(public=False, players=2)
    newer = lobbies.create(game="ninja", players=2)
    assert older.seat("ann", seat=1).status_code == 201
    page = lobbies.page(status="lobby")
    assert page["next"] is None
    assert [game["game_id"] for game in page["games"]] == [newer.game_id, older.game_id]
    listed = page["games"][1]
    assert listed == {
        "game_id": older.game_id,
        "game": "the-game",
        "players": 3,
        "free_seats": [0, 2],
        "options": older.view().get_json()["options"],
        "rated": False,
        "created_at": "2027-01-15T08:00:01.000Z",
    }


def test_the_game_filter(lobbies: Lobbies) -> None:
    ninja = lobbies.create(game="ninja", players=2)
    the_game = lobbies.create(players=2)
    assert lobbies.listed(game="ninja") == [ninja.game_id]
    assert lobbies.listed(game="the-game") == [the_game.game_id]


def test_full_started_and_closed_lobbies_are_not_listed(lobbies: Lobbies) -> None:
    full, started, closed, open_ = (lobbies.create(players=1) for _ in range(4))
    full.fill()
    started.fill()
    assert started.start().status_code == 200
    assert lobbies.http.delete(closed.url, headers=bearer(closed.host)).status_code == 204
    assert lobbies.listed() == [open_.game_id]
    # a full, started or closed lobby leaves the index
    assert lobbies.index_sizes() == {"all": 1, "game:the-game": 1, "due": 1}
    assert full.http.delete(f"{full.url}/seats/0", headers=bearer(full.host)).status_code == 204
    assert lobbies.listed() == [open_.game_id, full.game_id]  # a seat left lists it again


def test_an_expired_lobby_is_not_listed_and_leaves_the_index(lobbies: Lobbies) -> None:
    expired, kept = lobbies.create(players=2), lobbies.create(players=2)
    lobbies.app.extensions["service"].store.client.delete(f"tg:{{{expired.game_id}}}:game")  # as its TTL would
    assert lobbies.listed() == [kept.game_id]
    # a page of every game cannot name the gone game: its own key keeps the entry until a page of it, or its due
    assert lobbies.index_sizes() == {"all": 1, "game:the-game": 2, "due": 2}
    assert lobbies.listed(game="the-game") == [kept.game_id]
    assert lobbies.index_sizes() == {"all": 1, "game:the-game": 1, "due": 1}


def test_lobbies_due_are_pruned_by_the_next_change_without_anyone_listing(lobbies: Lobbies) -> None:
    for _ in range(5):
        lobbies.create(players=2)
    lobbies.clock.now += 301  # the lobbies' TTL (300 s in the tests) has passed for all of them
    newest = lobbies.create(players=2)
    assert lobbies.index_sizes() == {"all": 1, "game:the-game": 1, "due": 1}
    assert lobbies.listed() == [newest.game_id]


def test_a_change_renews_the_due_time(lobbies: Lobbies) -> None:
    renewed = lobbies.create(players=2)
    lobbies.clock.now += 200
    assert renewed.seat("ann").status_code == 201
    lobbies.clock.now += 200  # 400 s after creation, 200 s after its last change
    lobbies.create(players=2)
    assert renewed.game_id in lobbies.listed()


def test_pages_follow_cursors_without_duplicates_or_gaps(lobbies: Lobbies) -> None:
    first = [lobbies.create(players=2).game_id for _ in range(7)]
    page = lobbies.page(limit=3)
    assert [game["game_id"] for game in page["games"]] == first[::-1][:3]
    later = [lobbies.create(players=2).game_id for _ in range(2)]  # arrive between pages: never shift them
    second = lobbies.page(limit=3, cursor=page["next"])
    third = lobbies.page(limit=3, cursor=second["next"])
    assert [game["game_id"] for game in second["games"] + third["games"]] == first[::-1][3:]
    assert third["next"] is None
    assert lobbies.listed(limit=4) == (first + later)[::-1]


def test_a_page_skips_full_lobbies(lobbies: Lobbies) -> None:
    open_ids = []
    for number in range(6):
        game = lobbies.create(players=1)
        if number % 2:
            game.fill()
        else:
            open_ids.append(game.game_id)
    page = lobbies.page(limit=2)
    assert [game["game_id"] for game in page["games"]] == open_ids[::-1][:2]
    assert lobbies.page(limit=2, cursor=page["next"])["games"][0]["game_id"] == open_ids[0]


class Counting:
    """The lobby index's Redis client, counting the round trips and the index entries a page reads."""

    def __init__(self, client: Any) -> None:
        self.client, self.trips, self.entries = client, 0, 0

    def zrevrangebylex(self, *args: Any, **kwargs: Any) -> Any:
        self.trips += 1
        found = self.client.zrevrangebylex(*args, **kwargs)
        self.entries += len(found)
        return found

    def pipeline(self, *args: Any, **kwargs: Any) -> Any:
        pipe = self.client.pipeline(*args, **kwargs)
        execute = pipe.execute

        def counted() -> Any:
            self.trips += 1
            return execute()

        pipe.execute = counted
        return pipe

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)


FULL_LOBBIES = 300


def test_full_lobbies_leave_the_index_and_a_page_reads_a_bounded_number_of_entries(lobbies: Lobbies) -> None:
    """Hundreds of full lobbies neither stay in the index nor, if the index holds them anyway (written by an
    older version), make a page read more than a bound set by its limit."""
    open_ = lobbies.create(players=2)
    full = [new_game(lobbies.http, public=True, players=1) for _ in range(FULL_LOBBIES)]  # within the lobby TTL
    for game in full:
        game.fill()
    assert lobbies.index_sizes() == {"all": 1, "game:the-game": 1, "due": 1}
    index = lobbies.app.extensions["service"].lobbies
    client = index.client
    stale = {f"{entry}:{game.game_id}": 0 for entry, game in zip(_created_at(lobbies, full), full, strict=True)}
    client.zadd(f"{lobbies.prefix}:all", stale)
    counting = index.client = Counting(client)
    page = lobbies.page(limit=1)
    assert page["games"] == [] and page["next"] is not None  # a short page, with its cursor
    assert counting.entries <= 4 and counting.trips <= 5
    index.client = client
    assert lobbies.listed(limit=10) == [open_.game_id]  # the cursors lead to it


def _created_at(lobbies: Lobbies, games: list[Any]) -> list[str]:
    """The 13-digit creation times the index orders entries by, as the host's view gives them."""
    client = lobbies.app.extensions["service"].store.client
    return [f"{json.loads(client.hget(f'tg:{{{game.game_id}}}:game', 'meta'))['created_at']:013d}" for game in games]


@pytest.mark.parametrize(
    "query",
    [
        {"status": "playing"},
        {"limit": 0},
        {"limit": MAX_LIMIT + 1},
        {"limit": "ten"},
        {"game": "chess"},
        {"cursor": "not-a-cursor"},
        {"cursor": "1800000000000:bad id"},
        {"colour": "red"},
    ],
)
def test_bad_queries(lobbies: Lobbies, query: dict[str, object]) -> None:
    response = lobbies.http.get("/v1/games", query_string=query)
    assert error_of(response) == (422, "validation_error")
    assert set(response.get_json()["errors"]) == set(query)


def test_the_index_lives_on_one_cluster_slot(lobbies: Lobbies) -> None:
    lobbies.create(game="ninja", players=2)
    lobbies.create(players=2)
    keys = [f"{lobbies.prefix}:{name}" for name in lobbies.index_sizes()]
    assert len(keys) == 4
    assert len({key_slot(key.encode()) for key in keys}) == 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    moves=st.lists(st.sampled_from(["public", "private", "fill", "start", "close", "page"]), min_size=1, max_size=14),
    limit=st.integers(1, 4),
)
def test_the_pages_list_exactly_the_open_public_lobbies(
    make_app: Callable[..., Flask], moves: list[str], limit: int
) -> None:
    lobbies = Lobbies(make_app)
    games, cursor = [], None
    walk: list[str] = []  # the lobbies one client has seen since it started from the first page
    for move in moves:
        if move in ("public", "private"):
            games.append(lobbies.create(public=move == "public", players=1))
        elif move == "page":  # a client part-way through the pages while lobbies come and go
            if cursor is None:
                walk = []
            page = lobbies.page(limit=limit, **({"cursor": cursor} if cursor else {}))
            walk += [game["game_id"] for game in page["games"]]
            assert len(walk) == len(set(walk))  # never the same lobby twice in one walk through the pages
            cursor = page["next"]
        elif games:
            game = games.pop(0)
            if move in ("fill", "start"):
                game.fill()
            if move == "start":
                assert game.start().status_code == 200
            if move == "close":
                assert lobbies.http.delete(game.url, headers=bearer(game.host)).status_code == 204
    expected = [game.game_id for game in reversed(games) if game.view().get_json()["public"] and _open(game)]
    assert lobbies.listed(limit=limit) == expected


def _open(game: object) -> bool:
    view = game.view().get_json()  # type: ignore[attr-defined]
    return view["status"] == "lobby" and any(seat["name"] is None for seat in view["seats"])


def test_a_record_this_version_cannot_read_is_skipped(lobbies: Lobbies) -> None:
    unreadable, kept = lobbies.create(players=2), lobbies.create(players=2)
    client = lobbies.app.extensions["service"].store.client
    key = f"tg:{{{unreadable.game_id}}}:game"
    meta = json.loads(client.hget(key, "meta"))
    client.hset(key, "meta", json.dumps({**meta, "field_of_a_newer_version": 1}))
    assert lobbies.listed() == [kept.game_id]


def test_only_writes_that_can_change_the_list_go_to_its_index(
    lobbies: Lobbies, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat taken, the start and every other change of a lobby follow it in the index; a move of a running public
    game cannot change the list, and makes no round trip to the index."""
    index = lobbies.app.extensions["service"].lobbies
    synced: list[str] = []
    sync = index.sync

    def counted(game_id: str, *args: Any) -> None:
        synced.append(game_id)
        sync(game_id, *args)

    monkeypatch.setattr(index, "sync", counted)
    game = lobbies.create(players=1)
    assert synced == [game.game_id]  # listed
    game.fill()
    assert game.start(first_seat=0).status_code == 200
    assert synced == [game.game_id] * 3  # the seat taken (full: forgotten), the start
    hand = game.view(0).get_json()["hand"]
    assert game.play(0, hand[0], "asc1").status_code == 200
    assert game.play(0, hand[1], "asc2").status_code == 200
    assert game.end_turn(0).status_code == 200
    assert synced == [game.game_id] * 3  # three moves, no round trip to the index
    assert lobbies.listed() == []
