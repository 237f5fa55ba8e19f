"""Lost futures: after Redis lost writes (a crash loses up to a second of them with the shipped configuration, a
failover what the replica had not received), a game's version number comes back with other content. Each write's
nonce in the ETag and the event id tells the two apart: a client holding a lost version never gets ``304`` for the
other state, ``If-Match`` on it answers ``412``, and a stream resumed from it gets the current view at once.

The loss is what Redis does in a crash: the game's key goes back to what an earlier write left (``DUMP`` then
``RESTORE``, on fakeredis or the real Redis alike), and the game goes on from there with another move.
"""

from __future__ import annotations

from collections.abc import Callable

import redis
from events_reader import EventReader
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, bearer, error_of, started, tagged

from service.storage.store import game_key

TTL_MS = 300_000


def keep(redis_client: redis.Redis, game: GameClient) -> Callable[[], None]:
    """What Redis holds of the game now; calling the result loses every write made since."""
    key = game_key(game.game_id)
    kept = redis_client.dump(key)
    assert isinstance(kept, bytes)
    return lambda: redis_client.restore(key, TTL_MS, kept, replace=True)


def lost_future(http: FlaskClient, redis_client: redis.Redis) -> tuple[GameClient, str, str]:
    """A game whose version 3 (Ann's 2 on asc1) was seen, then lost, then written again (her 3 on asc1): the game,
    the ETag of version 2 (kept) and that of the lost version 3."""
    game = started(http, players=1, deck=SORTED_DECK)
    kept_tag = game.view(0).headers["ETag"]
    lose = keep(redis_client, game)
    lost = game.play(0, 2, "asc1")
    assert lost.status_code == 200 and tagged(lost.headers["ETag"], 3)
    lose()
    assert game.view(0).headers["ETag"] == kept_tag  # the game is back at version 2, as Redis kept it
    again = game.play(0, 3, "asc1")
    assert tagged(again.headers["ETag"], 3) and again.headers["ETag"] != lost.headers["ETag"]
    return game, kept_tag, lost.headers["ETag"]


def test_a_lost_version_gets_the_other_state_never_304(http: FlaskClient, redis_client: redis.Redis) -> None:
    game, _, lost = lost_future(http, redis_client)
    log = game.http.get(f"{game.url}/log", headers={"If-None-Match": lost})
    for answer in (game.view(0, **{"If-None-Match": lost}), log):
        assert answer.status_code == 200 and answer.headers["ETag"] != lost
    view = game.view(0).get_json()
    assert view["version"] == 3 and view["piles"][0]["top"] == 3
    current = game.view(0).headers["ETag"]
    assert game.view(0, **{"If-None-Match": current}).status_code == 304


def test_if_match_on_a_lost_version_answers_412_and_applies_nothing(
    http: FlaskClient, redis_client: redis.Redis
) -> None:
    game, _, lost = lost_future(http, redis_client)
    assert error_of(game.play(0, 4, "asc1", **{"If-Match": lost})) == (412, "stale_version")
    assert game.view(0).get_json()["version"] == 3
    assert game.play(0, 4, "asc1", **{"If-Match": game.view(0).headers["ETag"]}).status_code == 200


def resumed(game: GameClient, last_event_id: str) -> EventReader:
    headers = bearer(game.tokens[0], **{"Last-Event-ID": last_event_id})
    return EventReader(game.http.get(f"{game.url}/events", headers=headers, buffered=False).response)


def test_a_stream_resumed_from_a_lost_event_gets_the_current_view_at_once(
    http: FlaskClient, redis_client: redis.Redis
) -> None:
    game, kept, lost = lost_future(http, redis_client)
    current = {"version": 3, "view": game.view(0).get_json()}
    first = resumed(game, lost.strip('"')).next_event()
    assert first.data == current and first.id == game.view(0).headers["ETag"].strip('"')
    beyond = "9." + lost.strip('"').partition(".")[2]  # further than the game went since: lost too
    assert resumed(game, beyond).next_event().data == current
    assert resumed(game, kept.strip('"')).next_event().data == current  # version 2 was kept: only what followed


def test_an_open_stream_sees_the_game_written_again_after_a_loss(http: FlaskClient, redis_client: redis.Redis) -> None:
    """A stream that sent version 3 takes the read of the version 3 written again: same number, another state."""
    game = started(http, players=1, deck=SORTED_DECK)
    lose = keep(redis_client, game)
    reader = resumed(game, "")
    assert reader.next_event().data["version"] == 2
    game.play(0, 2, "asc1")
    assert reader.next_event().view["piles"][0]["top"] == 2
    lose()
    game.play(0, 3, "asc1")
    again = reader.next_event()
    assert again.data["version"] == 3 and again.view["piles"][0]["top"] == 3
