"""My games (issue 28, point 4): live ones first, newest first, by cursor, filtered; finished games a player played
kept for TG_HISTORY_TTL with their log, replay and analysis; games with no player keep TG_FINISHED_TTL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, bearer, error_of, new_game, stuck_deck
from players_client import LOST_TURN, Player, seated
from redis.crc import key_slot


def lost(http: FlaskClient, player: Player, **body: Any) -> GameClient:
    """A one-player game of The Game that ``player`` plays (by its key) and loses at its first turn."""
    game = seated(http, player, deck=stuck_deck(), **body)
    assert game.start(first_seat=0).status_code == 200
    assert player.post(f"{game.url}/turns", LOST_TURN).get_json()["status"] == "lost"
    return game


def ids(page: dict[str, Any]) -> list[str]:
    return [entry["game_id"] for entry in page["games"]]


def test_live_games_come_first_then_finished_ones_newest_first(timed: FlaskClient, clock: FakeClock) -> None:
    ann = Player(timed, "Ann")
    first_done = lost(timed, ann)
    clock.advance(1)
    live_old = seated(timed, ann, players=2)
    clock.advance(1)
    second_done = lost(timed, ann)
    clock.advance(1)
    live_new = seated(timed, ann, players=2, game="ninja")
    page = ann.games()
    assert ids(page) == [live_new.game_id, live_old.game_id, second_done.game_id, first_done.game_id]
    assert page["next"] is None
    entry = page["games"][2]
    assert entry["status"] == "lost" and entry["live"] is False and entry["seat"] == 0 and entry["ended_at"]
    assert entry["outcome"]["status"] == "lost" and entry["seats"] == [
        {"seat": 0, "name": "Ann", "bot": False, "player": ann.id}
    ]
    assert page["games"][0]["live"] is True and page["games"][0]["outcome"] is None
    assert page["games"][0]["seats"][1] == {"seat": 1, "name": "p1", "bot": False, "player": None}
    assert ids(ann.games(status="live")) == [live_new.game_id, live_old.game_id]
    assert ids(ann.games(status="finished")) == [second_done.game_id, first_done.game_id]
    assert ids(ann.games(game="ninja")) == [live_new.game_id]
    assert ann.get("/v1/players/me").get_json()["played"] == {"the-game": 2}


def test_pages_follow_cursors_without_gaps_or_duplicates(timed: FlaskClient, clock: FakeClock) -> None:
    ann = Player(timed)
    made = []
    for _ in range(5):
        made.append(seated(timed, ann, players=2).game_id)
        clock.advance(1)
    seen: list[str] = []
    cursor = None
    while True:
        page = ann.games(limit=2, **({} if cursor is None else {"cursor": cursor}))
        assert len(page["games"]) <= 2
        seen += ids(page)
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == made[::-1]
    finished_page = ann.games(status="finished", cursor=ann.games(limit=1)["next"])
    assert finished_page == {"games": [], "next": None}


def test_bad_queries_get_typed_errors(http: FlaskClient) -> None:
    ann = Player(http)
    for query in ({"status": "won"}, {"game": "chess"}, {"cursor": "x"}, {"limit": 0}, {"limit": 101}):
        answer = http.get("/v1/players/me/games", query_string=query, headers=ann.headers())
        assert error_of(answer) == (422, "validation_error"), query
    assert error_of(http.get("/v1/players/me/games")) == (401, "invalid_token")


def test_the_public_list_shows_only_games_anyone_may_read(http: FlaskClient) -> None:
    ann = Player(http)
    open_game = seated(http, ann, players=2)
    seated(http, ann, players=2, spectators=False)
    public = http.get(f"/v1/players/{ann.id}/games")
    assert public.status_code == 200 and ids(public.get_json()) == [open_game.game_id]
    assert error_of(http.get("/v1/players/AAAAAAAAAAAAAAAA/games")) == (404, "unknown_player")


def test_a_game_gone_leaves_the_list(http: FlaskClient) -> None:
    ann = Player(http)
    closed = seated(http, ann, players=2)
    kept = seated(http, ann, players=2)
    assert http.delete(closed.url, headers=bearer(closed.host)).status_code == 204
    assert ids(ann.games()) == [kept.game_id]


def test_a_finished_game_with_a_player_is_kept_for_the_history_ttl(
    make_app: Callable[..., Flask], redis_client: redis.Redis
) -> None:
    http = make_app(FINISHED_TTL=100, HISTORY_TTL=250).test_client()
    ann = Player(http)
    played = lost(http, ann)
    anonymous = new_game(http, players=1, deck=stuck_deck())
    anonymous.fill()
    anonymous.start(first_seat=0)
    assert anonymous.turn(0, [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")]).get_json()["status"] == "lost"
    assert 100 < redis_client.ttl(f"tg:{{{played.game_id}}}:game") <= 250
    assert 0 < redis_client.ttl(f"tg:{{{anonymous.game_id}}}:game") <= 100
    log = ann.get(f"{played.url}/log").get_json()
    assert log["replay"]["deck"] and ann.get(f"/web/replays/{played.game_id}").status_code == 200


def test_the_player_s_keys_and_index_share_one_slot(http: FlaskClient, redis_client: redis.Redis) -> None:
    ann = Player(http)
    seated(http, ann)
    keys = [key.decode() for key in redis_client.scan_iter(match=f"tg:{{p:{ann.id}}}:*")]
    assert sorted(key.rsplit(":", 1)[1] for key in keys) == ["games", "keys", "profile"]
    assert len({key_slot(key.encode()) for key in keys}) == 1  # one Redis Cluster slot
    assert all(redis_client.ttl(key) > 0 for key in keys)  # nothing lives for ever
