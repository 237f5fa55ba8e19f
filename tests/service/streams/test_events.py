"""The event stream in one process (the embedded store, or the real Redis when REDIS_URL is set).

A stream's events are read through the Flask test client as the server yields them. Changes are made between
two reads: the stream, suspended at its last event, is woken through the store's Pub/Sub channel and finds them
when it is read again (the keep-alive period is long, so nothing here depends on timing but that wake-up).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
from events_reader import Event, EventReader
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, bearer, stuck_deck, tagged, without_results
from hypothesis import given, settings
from hypothesis import strategies as st
from redis.backoff import NoBackoff
from redis.retry import Retry
from redis_cluster import available, free_node_port, redis_server
from werkzeug.test import TestResponse

import thegame_core as tg
from service.errors import ApiError
from service.records.game_record import GameRecord, Seat
from service.storage.store import CHANGES, GameStore, game_key
from service.streams import hub as hub_module
from service.streams.hub import Hub, Read, Watch
from service.streams.sse import BACKLOG, RETRY_MS, PublicEvents, Reader, read_game, states_since, views_since

WAKE_SECONDS = 30  # the keep-alive period in these tests: a stream that missed its wake-up would hang this long


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(STREAM_KEEPALIVE=WAKE_SECONDS)


@pytest.fixture
def http(app: Flask) -> FlaskClient:
    return app.test_client()


class Table:
    """A started game dealt from a known deck, human seats and bots, played through ``/actions``."""

    def __init__(
        self, http: FlaskClient, game: str, players: int, bots: dict[int, str], deck: list[int] | None = None
    ) -> None:
        self.http, self.game, self.players = http, game, players
        self.deck = deck or list(tg.get_game(game).shuffled_deck(3))
        created = http.post("/v1/games", json={"game": game, "players": players, "deck": self.deck}).get_json()
        self.id, self.host = created["game_id"], created["host_token"]
        self.options = created["options"]
        self.tokens: dict[int | None, str | None] = {None: None}
        for seat in range(players):
            bot = {"bot": bots[seat], "reaction_ms": 0} if seat in bots else {}  # at once: the test is the pace
            body = {"name": f"p{seat}", "seat": seat, **bot}
            taken = http.post(f"/v1/games/{self.id}/seats", json=body, headers=bearer(self.host)).get_json()
            if taken["token"]:
                self.tokens[seat] = taken["token"]

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"

    def start(self) -> None:
        assert self.http.post(f"{self.url}/start", json={"first_seat": 0}, headers=bearer(self.host)).status_code == 200

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.http.get(self.url, headers=bearer(self.tokens[seat])).get_json()  # type: ignore[no-any-return]

    def stream(self, seat: int | None = None, **headers: str) -> TestResponse:
        return self.http.get(f"{self.url}/events", headers=bearer(self.tokens[seat], **headers), buffered=False)

    def reader(self, seat: int | None = None, **headers: str) -> EventReader:
        answer = self.stream(seat, **headers)
        assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
        assert answer.headers["X-Accel-Buffering"] == "no"
        return EventReader(answer.response)

    def act(self) -> bool:
        """The first waiting human seat sends the last action its view lists; ``False`` once the game is over."""
        waiting = [seat for seat in self.view()["waiting_for"] if seat in self.tokens]
        if not waiting:
            return False
        action = self.view(waiting[0])["legal_actions"][-1]
        answer = self.http.post(f"{self.url}/actions", json=action, headers=bearer(self.tokens[waiting[0]]))
        assert answer.status_code == 200, answer.get_json()
        return True

    def core_state(self, version: int) -> tg.AnyState:
        """The game at ``version``, rebuilt by the core from the deck and the public log, not by the service."""
        entries = self.http.get(f"{self.url}/log").get_json()["entries"]
        state = tg.new_game(self.game, self.players, deck=self.deck, options=self.options, first_seat=0)
        game = tg.get_game(self.game)
        actions = [
            {k: v for k, v in entry.items() if k not in ("version", "bot", "auto")}
            for entry in entries
            if entry["version"] <= version
        ]
        return state.apply_all(game.parse_action(action) for action in actions)


def shows(view: dict[str, Any], core: dict[str, Any]) -> bool:
    """Whether the service's ``view`` holds the core's view (the service adds names and ids to it, and counts
    lobby changes in its version)."""
    for key, value in core.items():
        if key == "version":
            continue
        if key == "seats":
            if [{k: entry[k] for k in seen} for entry, seen in zip(view[key], value, strict=True)] != value:
                return False
        elif view[key] != value:
            return False
    return True


@pytest.mark.parametrize("game", ["the-game", "ninja"])
def test_every_event_is_the_readers_view_at_its_version(http: FlaskClient, game: str) -> None:
    """Two seats, a spectator and the host follow a game with a bot: one event per version (bots' moves
    too), each the reader's own view at that version as the core computes it, and the answer of a GET."""
    table = Table(http, game, 3, bots={2: "greedy"})
    readers = {seat: table.reader(seat) for seat in (0, 1, None)}
    host = EventReader(http.get(f"{table.url}/events", headers=bearer(table.host), buffered=False).response)
    for seat, reader in readers.items():
        assert reader.next_event().data == {"version": 3, "view": table.view(seat)}  # the lobby, at once
    host.next_event()
    table.start()
    seen = 3
    for _ in range(25):
        version = table.view()["version"]
        for seat, reader in readers.items():
            events = reader.until(version)
            assert [event.data["version"] for event in events] == list(range(seen + 1, version + 1))
            assert all(tagged(event.id, event.data["version"], quoted=False) for event in events)
            assert all(event.event == "view" for event in events)
            assert events[-1].view == table.view(seat)
            for event in events:
                state = table.core_state(event.data["version"])
                assert shows(event.view, state.view(seat) if seat is not None else state.public_view())
                assert set(event.view) == set(table.view(seat))  # nothing the reader's GET would not hold
        assert [event.view for event in host.until(version)][-1] == table.view()
        seen = version
        if not table.act():
            break
    assert seen > 20


def lose(table: Table) -> TestResponse:
    """Seat 0 of a one-player game dealt ``stuck_deck()`` plays the turn that loses it: the answer (versions 3 to 7)."""
    plays = [{"card": 99, "pile": "asc1"}, {"card": 98, "pile": "asc2"}, {"card": 2, "pile": "desc1"}]
    answer = table.http.post(
        f"{table.url}/turns",
        json={"plays": [*plays, {"card": 3, "pile": "desc2"}], "end_turn": True},
        headers=bearer(table.tokens[0]),
    )
    assert answer.get_json()["status"] == "lost"
    return answer


def test_a_finished_game_s_stream_hands_each_seat_its_rematch_token_then_ends(http: FlaskClient) -> None:
    """The last view of a game comes as it ends; the stream stays open for the rematch, whose view carries the
    seat's token in the new game (for ``EventSource`` too: ``?token=``); then the stream ends, and a reconnect
    that has seen everything gets 204 (EventSource stops reconnecting)."""
    table = Table(http, "the-game", 1, bots={}, deck=stuck_deck())
    table.start()
    reader = table.reader(0)
    assert reader.next_event().data["version"] == 2
    answer = lose(table)
    events = reader.until(answer.get_json()["version"])
    assert [event.data["version"] for event in events] == [3, 4, 5, 6, 7]
    assert events[-1].view == without_results(answer.get_json()) and events[-1].view["rematch"] is None
    browser = EventReader(http.get(f"{table.url}/events?token={table.tokens[0]}", buffered=False).response)
    spectator = table.reader(None)
    assert browser.next_event().data["version"] == spectator.next_event().data["version"] == 7
    rematch = http.post(f"{table.url}/rematch", headers=bearer(table.host)).get_json()
    for stream in (reader, browser):
        event = stream.next_event()
        assert event.data["version"] == 8 and event.view["rematch"]["game_id"] == rematch["game_id"]
        new_game = http.get(f"/v1/games/{rematch['game_id']}", headers=bearer(event.view["rematch"]["token"]))
        assert new_game.get_json()["seat"] == 0 and new_game.get_json()["status"] == "playing"
        assert stream.ended()
    assert spectator.next_event().view["rematch"] == {"game_id": rematch["game_id"]} and spectator.ended()
    assert table.stream(0, **{"Last-Event-ID": "8"}).status_code == 204
    late = table.reader(0, **{"Last-Event-ID": "5"})
    assert [event.data["version"] for event in late.until(8)] == [6, 7, 8] and late.ended()
    assert [event.data["version"] for event in table.reader(None).until(8)] == [8]


def test_a_finished_game_s_stream_waits_for_a_rematch_only_so_long(make_app: Callable[..., Flask]) -> None:
    """Without a rematch, the streams of a finished game end ``REMATCH_WAIT`` seconds after its last action, and a
    reconnect that has seen the last view then gets 204: no stream of a game that is over lasts until it expires."""
    clock = FakeClock()
    http = make_app(CLOCK=clock, REMATCH_WAIT=600, STREAM_KEEPALIVE=0.01).test_client()
    table = Table(http, "the-game", 1, bots={}, deck=stuck_deck())
    table.start()
    plays = [{"card": 99, "pile": "asc1"}, {"card": 98, "pile": "asc2"}, {"card": 2, "pile": "desc1"}]
    body = {"plays": [*plays, {"card": 3, "pile": "desc2"}], "end_turn": True}
    assert http.post(f"{table.url}/turns", json=body, headers=bearer(table.tokens[0])).get_json()["version"] == 7
    waiting = table.reader(0, **{"Last-Event-ID": "7"})  # has seen the last view: waits for a rematch
    clock.advance(599)
    assert waiting.next_block() == f"retry: {RETRY_MS}"
    assert waiting.next_block() == ": keep-alive"  # still open a second before the end of the wait
    clock.advance(2)
    assert waiting.ended()
    assert table.stream(0, **{"Last-Event-ID": "7"}).status_code == 204
    assert [event.data["version"] for event in table.reader(None).until(7)] == [7]  # a late reader: the last view


def test_a_reconnect_gets_every_view_after_its_last_event_id(http: FlaskClient) -> None:
    table = Table(http, "ninja", 2, bots={})
    table.start()
    for _ in range(6):
        table.act()
    version = table.view()["version"]
    assert version >= 8
    events = table.reader(1, **{"Last-Event-ID": "4"}).until(version)
    assert [event.data["version"] for event in events] == list(range(5, version + 1))
    assert all(shows(event.view, table.core_state(event.data["version"]).view(1)) for event in events)
    assert table.reader(1, **{"Last-Event-ID": "0"}).next_event().data["version"] == 3  # the deal: no lobby past
    for last in (str(version + 5), "x", ""):  # a version never reached, not a version: the current view
        assert table.reader(1, **{"Last-Event-ID": last}).next_event().data == {
            "version": version,
            "view": table.view(1),
        }


@pytest.mark.parametrize(
    "last", ["\xb2", "1\xb3", "\xb9\xb2", "5" * 5000, "1" * 19, "-1", "+1", "1.0", "0x1", "1 2", "\u0663"]
)
def test_a_last_event_id_that_is_not_a_plain_version_gets_the_full_view(http: FlaskClient, last: str) -> None:
    """Superscript digits (``str.isdigit`` says yes), more digits than ``int()`` reads, signs, other numerals: not a
    version, so the stream starts afresh as with no header (these were 500s), and anonymously too."""
    table = Table(http, "the-game", 1, bots={})
    table.start()
    table.act()
    version = table.view()["version"]
    assert table.reader(None, **{"Last-Event-ID": last}).next_event().data == {"version": version, "view": table.view()}


def test_a_reader_far_behind_gets_the_current_view_only(http: FlaskClient) -> None:
    table = Table(http, "the-game", 1, bots={})
    table.start()
    for _ in range(BACKLOG + 2):
        table.act()
    version = table.view()["version"]
    events = table.reader(0, **{"Last-Event-ID": str(version - BACKLOG - 1)}).until(version)
    assert [event.data for event in events] == [{"version": version, "view": table.view(0)}]
    events = table.reader(0, **{"Last-Event-ID": str(version - BACKLOG + 1)}).until(version)
    assert len(events) == BACKLOG - 1


def test_spectators_as_far_behind_share_their_events_and_others_get_their_own(http: FlaskClient) -> None:
    """The process renders a change's public events once for the spectators that had the same version before it:
    a spectator that resumes from further back, or with no version, still gets its own events (one per version it
    missed, or the current view), and the public view at each version."""
    table = Table(http, "the-game", 1, bots={})
    table.start()
    for _ in range(3):
        table.act()
    version = table.view()["version"]
    behind: dict[int | None, list[list[int]]] = {1: [], 3: [], None: []}  # versions behind: the events' versions
    for missed in behind:
        headers = {} if missed is None else {"Last-Event-ID": str(version - missed)}
        for _ in range(2):  # the second such spectator gets what the first had rendered
            events = table.reader(None, **headers).until(version)
            assert events[-1].data == {"version": version, "view": table.view()}
            assert all(shows(event.view, table.core_state(event.data["version"]).public_view()) for event in events)
            behind[missed].append([event.data["version"] for event in events])
    assert behind == {
        1: [[version]] * 2,
        3: [[version - 2, version - 1, version]] * 2,
        None: [[version]] * 2,
    }


def test_a_finished_game_s_public_end_rendered_without_its_ratings_is_not_served_once_they_come(app: Flask) -> None:
    """Rating a finished rated game may fail for a moment (its spectators then get its end without ratings, and the
    next view tries again): the end kept for the spectators of the process is not the one a later spectator gets
    once the ratings come."""
    http = app.test_client()
    table = Table(http, "the-game", 1, bots={}, deck=stuck_deck())
    table.start()
    lose(table)
    record, _ = read_game(app.extensions["service"].store, table.id)
    spectator, rated = Reader(table.id, None, None, None), [{"seat": 0, "player": "p", "before": 1, "after": 2}]
    ends = [list(views_since(spectator, record, record.version - 1, 0.0, ratings)) for ratings in (None, rated, None)]
    outcomes = [json.loads(end[-1].split(b"data: ", 1)[1])["view"]["outcome"] for end in ends]
    assert [outcome.get("ratings") for outcome in outcomes] == [None, rated, None]


def test_the_public_events_kept_hold_at_most_their_capacity_in_events() -> None:
    """Entries are kept by change and by where the reader was, and the oldest go once more than ``capacity`` events
    are held in all: a crowd resuming from far back (up to ``BACKLOG`` events each) cannot grow the process."""
    kept, rendered = PublicEvents(capacity=5), []

    def events(key: str, count: int) -> list[bytes]:
        def render() -> Iterator[bytes]:
            rendered.append(key)
            return iter([key.encode()] * count)

        return kept.events(("game", key, None, False), render)

    assert events("a", 3) == [b"a"] * 3
    assert events("a", 3) == [b"a"] * 3 and events("b", 2) == [b"b"] * 2  # 5 events in all: both kept
    assert events("a", 3) == [b"a"] * 3 and rendered == ["a", "b"]
    events("c", 4)  # 9: "a" goes, then "b"
    events("b", 2)  # rendered again; 6: "c" goes
    events("b", 2)
    assert rendered == ["a", "b", "c", "b"]


def test_the_token_may_come_in_the_query_for_eventsource(http: FlaskClient) -> None:
    table = Table(http, "the-game", 2, bots={})
    table.start()
    answer = http.get(f"{table.url}/events?token={table.tokens[1]}", buffered=False)
    assert EventReader(answer.response).next_event().view == table.view(1)
    header_wins = http.get(
        f"{table.url}/events?token={table.tokens[1]}", headers=bearer(table.tokens[0]), buffered=False
    )
    assert EventReader(header_wins.response).next_event().view == table.view(0)


def test_errors_before_the_stream_are_the_usual_json_errors(http: FlaskClient) -> None:
    table = Table(http, "the-game", 2, bots={})
    for answer, status, error in [
        (http.get(f"{table.url}/events?token=nope"), 401, "invalid_token"),
        (http.get(f"{table.url}/events", headers=bearer("nope")), 401, "invalid_token"),
        (http.get(f"{table.url}/events", headers={"Authorization": "Basic x"}), 401, "invalid_token"),
        (http.get("/v1/games/nosuchgame/events"), 404, "unknown_game"),
        (http.get("/v1/games/bad!id/events"), 404, "unknown_game"),
    ]:
        assert (answer.status_code, answer.mimetype, answer.get_json()["error"]) == (status, "application/json", error)
    assert http.get(f"{table.url}/events?token=nope").headers["WWW-Authenticate"] == "Bearer"


def test_keep_alive_comments_while_nothing_changes(make_app: Callable[..., Flask]) -> None:
    table = Table(make_app(STREAM_KEEPALIVE=0.01).test_client(), "the-game", 1, bots={})
    reader = table.reader(0)
    assert reader.next_block() == "retry: 1000"
    assert isinstance(reader.next_block(), Event)
    assert [reader.next_block(), reader.next_block()] == [": keep-alive", ": keep-alive"]


def test_a_stream_ends_after_its_lifetime_and_a_reconnect_misses_nothing(make_app: Callable[..., Flask]) -> None:
    table = Table(make_app(STREAM_KEEPALIVE=0.01, STREAM_LIFETIME=0.05).test_client(), "the-game", 2, bots={})
    table.start()
    reader = table.reader(0)
    first = reader.next_event()
    assert reader.ended()  # the game still runs: only the stream's time is up
    assert table.act()
    again = table.reader(0, **{"Last-Event-ID": first.id})
    assert again.next_event().data["version"] == first.data["version"] + 1


def test_a_stream_ends_when_its_game_is_closed_or_gone(
    make_app: Callable[..., Flask], redis_client: redis.Redis
) -> None:
    # an expiry publishes nothing: the stream sees it at its next recheck, RECHECK keep-alives later
    http = make_app(STREAM_KEEPALIVE=0.01).test_client()
    closed = Table(http, "the-game", 2, bots={})
    reader = closed.reader(None)
    reader.next_event()
    assert http.delete(closed.url, headers=bearer(closed.host)).status_code == 204
    assert reader.ended()
    expired = Table(http, "the-game", 2, bots={})
    gone = expired.reader(None)
    gone.next_event()
    redis_client.delete(game_key(expired.id))  # as if its TTL ran out
    assert gone.ended()


def test_a_closed_stream_stops_watching(app: Flask) -> None:
    table = Table(app.test_client(), "the-game", 2, bots={})
    hub = app.extensions["service"].hub
    answers = [table.stream(seat) for seat in (0, 1, None)]
    for answer in answers:
        EventReader(answer.response).next_event()
    assert hub.watched() == 3
    for answer in answers:
        answer.close()
    assert hub.watched() == 0


def test_the_spectators_a_change_wakes_share_one_read_of_it(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five spectators of one game: the hub reads each change once for all of them, not once per stream."""
    table = Table(app.test_client(), "the-game", 2, bots={})
    table.start()
    store, loads = app.extensions["service"].store, []
    real_load = store.load

    def counted_load(game_id: str, *args: Any, **kwargs: Any) -> Any:
        loads.append(game_id)
        return real_load(game_id, *args, **kwargs)

    monkeypatch.setattr(store, "load", counted_load)
    assert table.act()
    by_a_change = len(loads)  # the write's own reads: no stream is open
    first = app.extensions["service"].hub.watch(table.id)  # the hub subscribes, and reads every watched game once:
    assert first.woken.wait(10)  # done before the count starts, however slowly the machine runs
    first.close()
    readers = [table.reader() for _ in range(5)]
    for reader in readers:
        assert reader.next_event().data["version"] == table.view()["version"]
    loads.clear()
    assert table.act()
    version = table.view()["version"]
    assert [reader.next_event().data["version"] for reader in readers] == [version] * 5
    assert len(loads) == by_a_change + 2  # the write's, the view's GET above, and the hub's one read


def seat_and_spectator(make_app: Callable[..., Flask], **config: Any) -> tuple[Table, EventReader, EventReader]:
    """A game of The Game, seat 0's stream and a spectator's, both at the current view; a keep-alive a second."""
    table = Table(make_app(STREAM_KEEPALIVE=1, **config).test_client(), "the-game", 2, bots={})
    table.start()
    seat, spectator = table.reader(0), table.reader()
    assert seat.next_event().data["version"] == spectator.next_event().data["version"] == table.view()["version"]
    return table, seat, spectator


def next_event_in_a_thread(reader: EventReader) -> tuple[threading.Thread, list[Event]]:
    got: list[Event] = []
    thread = threading.Thread(target=lambda: got.append(reader.next_event()), daemon=True)
    thread.start()
    return thread, got


def test_a_change_is_written_to_its_seats_streams_before_any_spectator_s(make_app: Callable[..., Flask]) -> None:
    """The seat's stream yields the change's event and is not read on (the server has not written it yet): the
    spectator's stream waits; once the seat's stream is asked for more (its event written), the spectator gets it."""
    table, seat, spectator = seat_and_spectator(make_app, SEATS_FIRST_MS=WAKE_SECONDS * 1000)  # only the write frees it
    assert table.act()
    version = table.view()["version"]
    assert seat.next_event().data["version"] == version
    thread, got = next_event_in_a_thread(spectator)
    thread.join(0.5)
    assert thread.is_alive() and not got, "the spectator's stream had the change before the seat's wrote it"
    assert seat.next_block() == ": keep-alive"  # the seat's stream goes on: its event was written
    thread.join(WAKE_SECONDS)
    assert [event.data["version"] for event in got] == [version]


def test_a_seat_s_stream_that_is_not_read_holds_the_spectators_only_a_moment(make_app: Callable[..., Flask]) -> None:
    table, _seat, spectator = seat_and_spectator(make_app)  # the seat's stream stays open, never read on
    assert table.act()
    thread, got = next_event_in_a_thread(spectator)
    thread.join(WAKE_SECONDS)
    assert [event.data["version"] for event in got] == [table.view()["version"]]


def test_a_read_older_than_what_a_stream_sent_never_takes_it_back(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read the hub began before a stream's own first read can end after it: the stream keeps the newer record
    and goes on from it (it once went back to the older one, and sent the versions after it twice)."""
    app = make_app(STREAM_KEEPALIVE=0.02)
    table = Table(app.test_client(), "the-game", 2, bots={})
    table.start()
    store, hub = app.extensions["service"].store, app.extensions["service"].hub
    old = read_game(store, table.id)
    delivered: list[int] = []
    deliver, handed = Watch.deliver, threading.Condition()

    def spy(watch: Watch, read: Read) -> None:
        deliver(watch, read)
        with handed:
            delivered.append(-1 if read.record is None else read.record.version)
            handed.notify_all()

    monkeypatch.setattr(Watch, "deliver", spy)
    assert table.act()
    reader = table.reader()
    first = reader.next_event().data["version"]
    with handed:  # the hub reads every watched game when it subscribes: that read is in first
        assert handed.wait_for(lambda: first in delivered, 5)
    assert reader.next_block() == ": keep-alive"  # the stream took that read, and waits
    monkeypatch.setattr(hub, "_read", lambda game_id: old)
    assert table.act()  # the hub's read of this change ends with an older record than the stream sent
    with handed:
        assert handed.wait_for(lambda: delivered[-1] == old[0].version, 5)
    assert reader.next_block() == ": keep-alive"  # the stream took the old read, and waits
    monkeypatch.setattr(hub, "_read", partial(read_game, store))
    assert table.act()
    assert [reader.next_event().data["version"] for _ in range(2)] == [first + 1, first + 2]


def test_a_hub_hands_each_stream_its_read_failure(redis_client: redis.Redis) -> None:
    """A game gone when the hub reads it: every stream of it gets the error (and ends as on its own read)."""
    store = GameStore(redis_client, retries=3, max_bytes=1 << 20)
    hub = Hub(redis_client, partial(read_game, store))
    gone = f"no-such-game-{secrets.token_hex(4)}"
    watches = [hub.watch(gone) for _ in range(2)]
    redis_client.publish(CHANGES, game_key(gone))
    for watch in watches:
        assert watch.woken.wait(5)
        news = watch.take()
        assert news is not None and isinstance(news.error, ApiError) and news.error.error == "unknown_game"
        assert watch.take() is None  # taken once: the stream reads for itself until the next change
        watch.close()


def test_a_change_during_the_hubs_read_is_read_again(redis_client: redis.Redis) -> None:
    """Changes while the hub reads a game: one more read once it is done (not one per change), and the streams get
    the newest."""
    g1, g2 = f"g1-{secrets.token_hex(4)}", f"g2-{secrets.token_hex(4)}"  # other processes' tests publish too
    reading, release, reads = threading.Event(), threading.Event(), []

    def read(game_id: str) -> tuple[GameRecord, float | None]:
        if game_id == g1:  # slow, counted; g2 answers at once
            reads.append(game_id)
            reading.set()
            assert release.wait(5)
        version = len(reads) if game_id == g1 else 1
        return GameRecord("the-game", 2, {}, 0, "host", None, version, (None, None)), None

    hub = Hub(redis_client, read)
    watch = hub.watch(g1)
    assert reading.wait(5)  # the read of every watched game once subscribed (made, however slowly, after the watch)
    marker = hub.watch(g2)
    for key in (g1, g1, g1, g2):
        redis_client.publish(CHANGES, game_key(key))
    assert marker.woken.wait(5)  # messages come in order: the three changes of g1 were handed on
    release.set()
    newest = 0
    deadline = time.monotonic() + 5
    while newest < 2 and time.monotonic() < deadline:
        if watch.woken.wait(0.1) and (news := watch.take()) is not None and news.record is not None:
            newest = news.record.version
    assert newest == 2 and reads == [g1, g1]
    watch.close()
    marker.close()


def test_a_redis_outage_is_logged_when_it_begins_and_when_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The listener subscribes again and again while Redis is away (here a server that hangs up at once), and logs
    the outage twice, not at every try: when it begins, and when a Redis takes its subscription again."""
    if not available():
        pytest.skip("TG_REDIS_SERVERS=off, or redis-server and redis-cli are not installed")
    monkeypatch.setattr(hub_module, "RETRY_SECONDS", 0.01)
    monkeypatch.setattr(hub_module, "READY_SECONDS", 0.01)
    port, lost = free_node_port(), 0
    with socket.create_server(("127.0.0.1", port)) as hang_up:
        hang_up.settimeout(10)
        client = redis.Redis(port=port, socket_timeout=1, retry=Retry(NoBackoff(), 0))  # one connection a try
        others = set(threading.enumerate())  # other tests' hubs log their own outages: only this one's counts
        watch = Hub(client, partial(read_game, GameStore(client, retries=3, max_bytes=1 << 20))).watch("g1")
        (listener,) = [
            thread for thread in threading.enumerate() if thread not in others and thread.name == "tg-events"
        ]

        def logged() -> list[str]:
            return [record.getMessage() for record in caplog.records if record.thread == listener.ident]

        while lost < 20:  # after the loss is logged, 20 more subscriptions refused
            hang_up.accept()[0].close()
            lost += bool(logged())
    with redis_server(port, tmp_path):
        deadline = time.monotonic() + 10
        while not any("renewed" in message for message in logged()) and time.monotonic() < deadline:
            time.sleep(0.01)
        said = logged()  # (stopping this server makes another outage)
    assert len(said) == 2 and said[0].startswith("event subscription lost") and "renewed" in said[1]
    watch.close()


def test_a_watch_keeps_the_newest_of_reads_ending_out_of_order(redis_client: redis.Redis) -> None:
    hub = Hub(redis_client, partial(read_game, GameStore(redis_client, retries=3, max_bytes=1 << 20)))
    watch = hub.watch("g1")
    newer, older = (GameRecord("the-game", 2, {}, 0, "host", None, v, (None, None)) for v in (5, 4))
    watch.deliver(Read(newer, None))
    watch.deliver(Read(older, None))
    news = watch.take()
    assert news is not None and news.record is newer
    watch.close()


def test_a_stream_stops_when_its_token_no_longer_holds_the_seat(http: FlaskClient) -> None:
    """A seat given up and taken by someone else: the old token's stream must not show the new holder's hand."""
    table = Table(http, "the-game", 2, bots={})
    table.start()
    record = http.application.extensions["service"].store.load(table.id).record()
    assert record is not None
    reader = Reader(table.id, None, record.seats[0].token if record.seats[0] else None, 0)
    assert reader.still_reads(record)
    taken_over = dataclasses.replace(record, seats=(Seat("eve", "another-digest"), *record.seats[1:]))
    assert not reader.still_reads(taken_over)
    assert Reader(table.id, None, None, None).still_reads(taken_over)


@st.composite
def played(draw: st.DrawFn) -> tuple[GameRecord, int]:
    """A record of a game several actions in (a random game, random lobby length), and a version before it."""
    name = draw(st.sampled_from(["the-game", "ninja"]))
    state = tg.new_game(name, 2, seed=draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 40))):
        if state.status != "playing":
            break
        seat = min(state.waiting_for)
        actions = state.legal_actions(seat)
        state = state.apply(draw(st.sampled_from(actions)))
    lobby = draw(st.integers(1, 5))
    record = GameRecord(name, 2, {}, 0, "host", None, lobby, (Seat("a", "x"), Seat("b", "y")), state=state)
    return record, draw(st.integers(0, record.version))


@settings(max_examples=40, deadline=None)
@given(played())
def test_states_since_rebuilds_each_version_like_state_at(case: tuple[GameRecord, int]) -> None:
    record, after = case
    states = list(states_since(record, after))
    versions = [version for version, _ in states]
    assert versions[-1] == record.version and versions == sorted(set(versions))
    first = max(after + 1, record.lobby_version)
    if record.version - first < BACKLOG and first < record.version:
        assert versions == list(range(first, record.version + 1))
    for version, state in states:
        assert state is not None and tg.dumps(state) == tg.dumps(record.state_at(version))


def test_streams_that_look_again_together_share_one_read(redis_client: redis.Redis) -> None:
    """Streams woken by one change time out together when nothing changes: each asks the hub to read the game again,
    and those asks share the reads (one under way, one more once it is done), not one read per stream."""
    reading, release, reads = threading.Event(), threading.Event(), []

    def read(game_id: str) -> tuple[GameRecord, float | None]:
        reads.append(game_id)
        reading.set()
        assert release.wait(5)
        return GameRecord("the-game", 2, {}, 0, "host", None, len(reads), (None, None)), None

    hub = Hub(redis_client, read)
    watches = [hub.watch("g1") for _ in range(5)]
    for watch in watches:
        watch.refresh()
    assert reading.wait(5)
    release.set()
    for watch in watches:
        deadline = time.monotonic() + 5
        while (news := watch.take()) is None or news.record is None or news.record.version < 2:
            assert watch.woken.wait(max(0.0, deadline - time.monotonic())), "the second read reached every stream"
        watch.close()
    assert reads == ["g1", "g1"]
