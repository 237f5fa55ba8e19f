"""Spectators' events written by their process's fan-out, straight to their connections: a parked watch's reads go
to its writer first; through real gunicorn, well formed for HTTP/1.1 (chunks) and HTTP/1.0 (raw) readers, every
version once and in order, the same for a reader whose buffers are full (the write the fan-out leaves half done,
its stream finishes), and a game's end, which the stream writes; under gevent, a crowd's fan-out in batches."""

from __future__ import annotations

import http.client
import itertools
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from events_reader import EventReader
from flask import Flask
from servers import under_gevent
from test_events import Table
from test_events_processes import GUNICORN, call, server
from test_metrics import parsed, value
from test_seats_first import Game, got

from service.streams.hub import FAN_OUT_BATCH, Hub, Read
from service.streams.sse import KEEP_ALIVE, RECHECK, Parked, Reader, Wake, _wait, read_game, views_since

SEED = 3
#: One worker, and no keep-alive while the game moves: each change comes while the stream waits parked (a stream
#: leaves its wait for a keep-alive only after that many idle seconds).
QUIET = {"WEB_CONCURRENCY": "1", "TG_STREAM_KEEPALIVE": "30"}


class SmallBuffers(http.client.HTTPConnection):
    """A client whose socket's receive buffer is as small as the kernel allows: the server's writes soon wait."""

    def connect(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.sock.settimeout(self.timeout)
        self.sock.connect((self.host, self.port))


@contextmanager
def http11(port: int, path: str, small: bool = False) -> Iterator[EventReader]:
    """A stream read by ``http.client``, which decodes the chunks and fails on a malformed one."""
    connection = (SmallBuffers if small else http.client.HTTPConnection)("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", f"/v1{path}")
        answer = connection.getresponse()
        assert answer.status == 200 and answer.getheader("Transfer-Encoding") == "chunked"
        yield EventReader(iter(lambda: answer.read1(65536), b""))
    finally:
        connection.close()


@contextmanager
def http10(port: int, path: str) -> Iterator[EventReader]:
    """A stream asked for in HTTP/1.0: its body is the events' bytes as they are, until the connection closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET /v1{path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        received = b""
        while b"\r\n\r\n" not in received:
            received += sock.recv(65536)
        head, body = received.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.0 200") and b"transfer-encoding" not in head.lower()
        yield EventReader(itertools.chain([body], iter(lambda: sock.recv(65536), b"")))


def fan_out_events(port: int) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        return value(parsed(answer.read().decode()), "tg_stream_events_total", written_by="fan_out")


def solo_game(port: int) -> tuple[str, str, int, str]:
    """A started one-player game of The Game: its id, the player's token, its version and the host's token."""
    created = call(port, "POST", "/games", {"game": "the-game", "players": 1, "seed": SEED})
    game, host = created["game_id"], created["host_token"]
    token = call(port, "POST", f"/games/{game}/seats", {"name": "Ann"})["token"]
    started = call(port, "POST", f"/games/{game}/start", {"first_seat": 0}, host)
    return game, token, started["version"], host


def play(port: int, game: str, token: str, prefer: tuple[str, ...] = ("signal",)) -> int | None:
    """One move of the player's: the last legal one of the first type of ``prefer`` that has one (signals never end
    the game; ending each turn as soon as the rules allow soon does), else the last one; the version it made,
    ``None`` once the game is over."""
    view: dict[str, Any] = call(port, "GET", f"/games/{game}", token=token)
    if view["status"] != "playing":
        return None
    actions = view["legal_actions"]
    kinds = [kind for kind in prefer if any(action["type"] == kind for action in actions)]
    action = next((action for action in reversed(actions) if kinds and action["type"] == kinds[0]), actions[-1])
    return int(call(port, "POST", f"/games/{game}/actions", action, token)["version"])


def test_spectators_of_both_http_versions_get_every_version_once_in_order_and_as_a_get_shows_it() -> None:
    with server(GUNICORN, **QUIET) as (port, _):
        game, token, started, _ = solo_game(port)
        before = fan_out_events(port)
        path = f"/games/{game}/events"
        with http11(port, path) as chunked, http10(port, path) as raw:
            assert chunked.next_event().data["version"] == raw.next_event().data["version"] == started
            played = []
            while len(played) < 20 and (version := play(port, game, token)) is not None:
                played.append(version)
                public = call(port, "GET", f"/games/{game}")
                for reader in (chunked, raw):
                    event = reader.next_event()
                    assert (event.data["version"], event.view) == (version, public), "one event per change, in order"
        assert played == list(range(started + 1, started + 21))
        assert fan_out_events(port) - before == 2 * len(played), "each event after the first, written by the fan-out"


def test_a_spectator_whose_buffers_are_full_still_gets_every_version_once_in_order() -> None:
    """The reader reads nothing while the game moves 40 times (its events fill both sockets' buffers: the fan-out's
    writes come out half done, then would wait), then reads them all."""
    with server(GUNICORN, **QUIET) as (port, _):
        game, token, started, _ = solo_game(port)
        with http11(port, f"/games/{game}/events", small=True) as late:
            assert late.next_event().data["version"] == started
            played = [version for _ in range(40) if (version := play(port, game, token)) is not None]
            assert len(played) == 40
            assert [late.next_event().data["version"] for _ in played] == played


def test_a_seat_s_own_stream_is_never_written_by_the_fan_out() -> None:
    with server(GUNICORN, **QUIET) as (port, _):
        game, token, started, _ = solo_game(port)
        before = fan_out_events(port)
        with http11(port, f"/games/{game}/events?token={token}") as seat:
            assert seat.next_event().data["version"] == started
            version = play(port, game, token)
            assert seat.next_event().data["version"] == version
        assert fan_out_events(port) == before


def test_a_parked_watch_s_reads_go_to_its_writer_and_wake_it_only_when_the_writer_leaves_them(
    connect: Callable[[], redis.Redis],
) -> None:
    game = Game(connect())
    hub = Hub(connect(), game.read)
    watch = hub.watch(game.id)
    assert got(watch) == 1
    handed: list[int] = []
    came = threading.Semaphore(0)

    def writes_even_versions(read: Read) -> bool:
        assert read.record is not None
        handed.append(read.record.version)
        came.release()
        return read.record.version % 2 == 0

    with watch.parked(writes_even_versions):
        written = game.change()
        assert came.acquire(timeout=10)
        assert not watch.woken.is_set(), "woken for a read its writer took"
        left = game.change()
        assert got(watch) == left
    after = game.change()
    assert got(watch) == after
    assert handed == [written, left], "a read handed to the writer once the watch left its block"
    watch.close()


def test_a_parked_spectator_s_stream_gets_the_game_s_end_from_its_stream_and_ends_after_the_rematch_wait() -> None:
    """The fan-out leaves a game's end to the stream (a finished game's view may carry ratings): the spectator
    still gets every version, the last as a GET shows it, then the stream ends when the wait for a rematch does."""
    with server(GUNICORN, **QUIET, TG_REMATCH_WAIT="1") as (port, _):
        game, token, started, _ = solo_game(port)
        before = fan_out_events(port)
        with http11(port, f"/games/{game}/events") as spectator:
            assert spectator.next_event().data["version"] == started
            versions = []
            while (version := play(port, game, token, prefer=("end_turn", "play"))) is not None:
                versions.append(version)
                assert spectator.next_event().data["version"] == version
            last = call(port, "GET", f"/games/{game}")
            assert last["status"] != "playing" and last["version"] == versions[-1]
            assert spectator.ended()
        assert fan_out_events(port) - before == len(versions) - 1, "each event but the end's, by the fan-out"


class ShortWrites:
    """A connection that takes at most ``room`` bytes of a write at once (0: a write would wait), and all of what
    the stream sends itself; ``failing``: that send fails."""

    def __init__(self, room: int, failing: bool = False) -> None:
        self.room, self.failing = room, failing
        self.received = b""

    def frame(self, data: bytes) -> bytes:
        return b"<%s>" % data

    def send_now(self, framed: bytes) -> int:
        self.received += framed[: self.room]
        return min(self.room, len(framed))

    def send_all(self, framed: bytes) -> None:
        if self.failing:
            raise TimeoutError("the reader did not read")
        self.received += framed


@pytest.mark.parametrize("room", [0, 10, 1 << 20], ids=["would wait", "half done", "done"])
def test_a_parked_write_is_done_or_left_to_the_stream_which_sends_what_it_left_first(app: Flask, room: int) -> None:
    table = Table(app.test_client(), "the-game", 1, bots={})
    table.start()
    service = app.extensions["service"]
    before, due = read_game(service.store, table.id)
    table.act()
    table.act()
    after, _ = read_game(service.store, table.id)
    connection, watch = ShortWrites(room), service.hub.watch(table.id)
    parked = Parked(service, Reader(table.id, None, None, None), connection)  # type: ignore[arg-type]
    parked.hold(before, due)
    events = b"".join(views_since(parked.reader, after, before.version, service.now()))
    assert parked.write(Read(after, None)) == (room > len(events) + 2)
    assert parked.write(Read(after, None)) == (room > len(events) + 2), "what a half-done write left comes first"
    parked.wait(watch, 0)
    assert connection.received == (b"" if room == 0 else b"<%s>" % events)
    assert parked.held()[0].version == (before if room == 0 else after).version
    watch.close()


def test_the_end_of_a_half_done_write_that_fails_ends_the_stream_with_the_failure(app: Flask) -> None:
    """Nothing may follow a chunk cut short: the failure goes up to the server, which closes the connection."""
    table = Table(app.test_client(), "the-game", 1, bots={})
    table.start()
    service = app.extensions["service"]
    before, due = read_game(service.store, table.id)
    table.act()
    after, _ = read_game(service.store, table.id)
    watch = service.hub.watch(table.id)
    parked = Parked(service, Reader(table.id, None, None, None), ShortWrites(10, failing=True))  # type: ignore[arg-type]
    parked.hold(before, due)
    assert not parked.write(Read(after, None))
    with pytest.raises(TimeoutError):
        parked.wait(watch, 0)
    watch.close()


def test_a_keep_alive_goes_only_after_idle_waits_and_a_parked_stream_s_writes_restart_the_count(app: Flask) -> None:
    """``RECHECK`` idle waits end the wait (the stream then reads the game again); a wait during which the fan-out
    wrote is not idle: no keep-alive, and the count starts again."""
    table = Table(app.test_client(), "the-game", 1, bots={})
    table.start()
    service = app.extensions["service"]
    record, _ = read_game(service.store, table.id)
    wakes = iter([Wake(False), Wake(False, wrote=True), *[Wake(False)] * RECHECK, Wake(True)])
    sent = list(_wait(service, record, time.monotonic() + 3600, lambda _: next(wakes)))
    assert sent == [KEEP_ALIVE] * (1 + RECHECK), "one before the write, then RECHECK"
    assert next(wakes) == Wake(True), "the wait ended after RECHECK idle waits in a row"


def test_a_fan_out_to_a_crowd_lets_what_fell_due_run_between_batches() -> None:
    """Under gevent (a process of its own, as a gunicorn worker), a greenlet made ready while a change is fanned out
    to 3 batches of spectators runs once the first batch is written, not after the whole crowd."""
    crowd = 3 * FAN_OUT_BATCH
    order = under_gevent("fan-out", crowd)
    assert sorted(entry for entry in order if entry != "due") == list(range(crowd))  # each spectator written once
    assert order.index("due") == FAN_OUT_BATCH  # right after the first batch (whose first write made it ready)
