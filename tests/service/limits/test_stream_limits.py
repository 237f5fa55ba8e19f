"""The cap on open event streams per client (an address, a token) and the bound on a stream's writes.

In one process through the Flask test client (a stream is open until its answer is closed), then through real
gunicorn workers sharing Redis: the count holds across processes, a reader that does not read loses its stream
once a write cannot complete within ``TG_STREAM_WRITE_TIMEOUT``, and other clients are served meanwhile.
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
import time
from collections.abc import Callable, Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, bearer, error_of, new_game
from servers import call, running
from werkzeug.test import TestResponse

from service.config import from_env
from service.limits.streams import LEASE_SECONDS, StreamSlots

CAP = 2
KEEPALIVE = 30  # long: nothing here waits for a keep-alive


@pytest.fixture
def slots_prefix() -> str:
    return f"test-streams-{secrets.token_hex(8)}:"


@pytest.fixture
def capped(make_app: Callable[..., Flask], slots_prefix: str, clock: FakeClock) -> FlaskClient:
    """A client of an app with limits on and at most ``CAP`` streams per client, from the address 192.0.2.1."""
    app = make_app(
        LIMITS=True, LIMITS_PREFIX=slots_prefix, LIMITS_CLOCK=clock, MAX_GAMES=0, STREAMS_PER_CLIENT=CAP,
        STREAM_KEEPALIVE=KEEPALIVE,
    )  # fmt: skip
    http = app.test_client()
    http.environ_base["REMOTE_ADDR"] = "192.0.2.1"
    return http


@pytest.fixture
def opened() -> Iterator[list[TestResponse]]:
    """The streams a test opens, closed at its end (as the server closes a stream whose client went)."""
    streams: list[TestResponse] = []
    yield streams
    for stream in streams:
        stream.close()


def open_stream(http: FlaskClient, game: GameClient, opened: list[TestResponse], **headers: str) -> TestResponse:
    answer = http.get(f"{game.url}/events", headers=headers, buffered=False)
    if answer.status_code == 200:
        assert next(answer.response) == b"retry: 1000\n\n"  # the stream has begun
        opened.append(answer)
    return answer


def too_many(answer: TestResponse) -> None:
    assert error_of(answer) == (429, "too_many_streams"), answer.get_json()
    assert answer.mimetype == "application/json" and answer.headers["X-Content-Type-Options"] == "nosniff"
    assert int(answer.headers["Retry-After"]) == KEEPALIVE
    assert "close one" in answer.get_json()["message"]


def test_an_address_holds_at_most_its_cap_of_streams(capped: FlaskClient, opened: list[TestResponse]) -> None:
    game, other = new_game(capped, players=2), new_game(capped, players=2)
    assert [open_stream(capped, g, opened).status_code for g in (game, other)] == [200, 200]
    too_many(open_stream(capped, game, opened))
    too_many(open_stream(capped, other, opened))  # every game counts
    capped.environ_base["REMOTE_ADDR"] = "192.0.2.2"
    assert open_stream(capped, game, opened).status_code == 200  # another address, its own streams
    capped.environ_base["REMOTE_ADDR"] = "192.0.2.1"
    assert game.view().status_code == 200  # the cap stops streams, not reads


def test_a_stream_that_ends_gives_its_slot_back(capped: FlaskClient, opened: list[TestResponse]) -> None:
    game = new_game(capped, players=2)
    first, _second = (open_stream(capped, game, opened) for _ in range(CAP))
    too_many(open_stream(capped, game, opened))
    first.close()
    assert open_stream(capped, game, opened).status_code == 200
    too_many(open_stream(capped, game, opened))


def test_an_ipv6_client_is_counted_by_its_64(capped: FlaskClient, opened: list[TestResponse]) -> None:
    game = new_game(capped, players=2)
    for host in range(CAP):
        capped.environ_base["REMOTE_ADDR"] = f"2001:db8:1:2::{host + 1}"
        assert open_stream(capped, game, opened).status_code == 200
    capped.environ_base["REMOTE_ADDR"] = "2001:db8:1:2:ffff::9"
    too_many(open_stream(capped, game, opened))
    capped.environ_base["REMOTE_ADDR"] = "2001:db8:1:3::1"
    assert open_stream(capped, game, opened).status_code == 200


def test_a_token_holds_at_most_its_cap_of_streams_from_any_address(
    capped: FlaskClient, opened: list[TestResponse], redis_client: redis.Redis, slots_prefix: str
) -> None:
    """The same seat token from ever new addresses; the address's slot taken for a refused token is given back."""
    game = new_game(capped, players=2)
    assert game.seat("ann").status_code == 201
    token = bearer(game.tokens[0])
    for host in range(CAP):
        capped.environ_base["REMOTE_ADDR"] = f"198.51.100.{host}"
        assert open_stream(capped, game, opened, **token).status_code == 200
    capped.environ_base["REMOTE_ADDR"] = "198.51.100.9"
    too_many(open_stream(capped, game, opened, **token))
    assert redis_client.zcard(f"{slots_prefix}streams:{{a:198.51.100.9}}") == 0
    assert open_stream(capped, game, opened).status_code == 200  # a spectator from there: the address's own
    assert open_stream(capped, game, opened, **bearer(game.host)).status_code == 200  # another token


def test_a_refused_stream_watches_nothing(capped: FlaskClient, opened: list[TestResponse]) -> None:
    game = new_game(capped, players=2)
    hub = capped.application.extensions["service"].hub
    for _ in range(CAP):
        open_stream(capped, game, opened)
    assert hub.watched() == CAP
    too_many(open_stream(capped, game, opened))
    assert hub.watched() == CAP


def test_slots_of_a_process_that_died_expire_with_their_lease(redis_client: redis.Redis, slots_prefix: str) -> None:
    """Slots taken and never given back (their process died) free themselves once their lease is over; a stream
    that renews its slots keeps them."""
    clock = FakeClock()
    slots = StreamSlots(redis_client, slots_prefix, CAP, 15, clock)
    kept, _lost = slots.take("192.0.2.1", None), slots.take("192.0.2.1", None)
    key = slots.key("a:192.0.2.1")
    assert 0 < redis_client.pttl(key) <= LEASE_SECONDS * 1000
    clock.advance(LEASE_SECONDS * 0.6)
    kept.renew()
    with pytest.raises(Exception, match="close one first"):
        slots.take("192.0.2.1", None)
    clock.advance(LEASE_SECONDS * 0.6)  # the lost slot's lease is over; the renewed one's is not
    slots.take("192.0.2.1", None)
    with pytest.raises(Exception, match="close one first"):
        slots.take("192.0.2.1", None)
    assert redis_client.zcard(key) == CAP


def test_streams_are_not_capped_with_limits_off(http: FlaskClient, opened: list[TestResponse]) -> None:
    game = new_game(http, players=2)
    assert {open_stream(http, game, opened).status_code for _ in range(25)} == {200}


def test_settings() -> None:
    assert (from_env({})["STREAMS_PER_CLIENT"], from_env({})["STREAM_WRITE_TIMEOUT"]) == (20, 5)
    environ = {"TG_STREAMS_PER_CLIENT": "0", "TG_STREAM_WRITE_TIMEOUT": "2"}
    assert (from_env(environ)["STREAMS_PER_CLIENT"], from_env(environ)["STREAM_WRITE_TIMEOUT"]) == (0, 2)
    for name in ("TG_STREAMS_PER_CLIENT", "TG_STREAM_WRITE_TIMEOUT"):
        with pytest.raises(ValueError, match=name):
            from_env({name: "-1"})


# Real gunicorn workers ---------------------------------------------------------------------------
SERVERS = {
    "gunicorn": [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py", "service:create_app()"],
    "python -m service": [sys.executable, "-m", "service"],  # werkzeug's development server, one process
}
#: Rounds of 25 changes at most: a loaded server may send one view for several changes (a lobby's stream sends the
#: current view only), so the bytes that fill a stream's buffers take more changes then.
ROUNDS = 40
#: The client's address as the test names it (the trusted proxy's header): the limits' keys in the shared Redis
#: are then this run's alone.
CLIENT = "X-Test-Client"


class Client:
    """Raw HTTP/1.1 to a server on 127.0.0.1, as the client at ``address``."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address

    def call(self, method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, object]:
        return call(self.port, method, path, body, token, {CLIENT: self.address})

    def stream(self, path: str, receive_buffer: int = 0) -> tuple[socket.socket, bytes]:
        """A stream opened on a raw socket (with a small receive buffer, if given) and its first bytes."""
        sock = socket.socket()
        if receive_buffer:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", self.port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\n{CLIENT}: {self.address}\r\n\r\n".encode())
        return sock, sock.recv(1024)


def closed_by_the_server(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds``, reading (and dropping) whatever it had sent."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if not sock.recv(1 << 20):
                return True
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True
    return False


@pytest.mark.parametrize("server", SERVERS)
def test_through_real_servers_the_cap_holds_across_workers_and_an_unread_stream_ends(
    monkeypatch: pytest.MonkeyPatch, server: str
) -> None:
    """Two gunicorn workers when Redis is there (one otherwise), or the development server: a client holds its cap
    of streams, its next is refused whichever worker takes it, /v1/health and other clients are served; a stream
    never read is ended once a write waits past ``TG_STREAM_WRITE_TIMEOUT`` (its slot then serves a new stream),
    while streams read go on."""
    settings = {"TG_LIMITS": "on", "TG_STREAMS_PER_CLIENT": "3", "TG_STREAM_WRITE_TIMEOUT": "1"}
    settings |= {"TG_TRUSTED_PROXY_HEADER": CLIENT, "TG_CHANGE_RATE": "10000/1", "TG_STREAM_KEEPALIVE": "1"}
    settings |= {"WEB_CONCURRENCY": "2" if os.environ.get("REDIS_URL") else "1", "GUNICORN_ACCESS_LOG": "off"}
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    me, other = (f"2001:db8:{secrets.token_hex(2)}:{secrets.token_hex(2)}::1" for _ in range(2))  # /64s of this run
    with running(SERVERS[server]) as (port, _):
        mine, theirs = Client(port, me), Client(port, other)
        status, created = mine.call("POST", "/v1/games", {"game": "ninja", "players": 2})
        assert status == 201 and isinstance(created, dict)
        game, host = f"/v1/games/{created['game_id']}", created["host_token"]
        unread, first = mine.stream(f"{game}/events", receive_buffer=4096)
        assert first.startswith(b"HTTP/1.1 200")
        held = [mine.stream(f"{game}/events")[0] for _ in range(2)]
        for _ in range(4):  # whichever worker takes the connection
            status, refusal = mine.call("GET", f"{game}/events")
            assert status == 429 and isinstance(refusal, dict) and refusal["error"] == "too_many_streams"
        assert theirs.call("GET", "/v1/health")[0] == 200
        their_stream, answer = theirs.stream(f"{game}/events")
        assert answer.startswith(b"HTTP/1.1 200")  # another client's stream
        their_stream.close()
        for seat in range(2):
            assert mine.call("POST", f"{game}/seats", {"name": "x" * 40, "seat": seat})[0] == 201
        for _ in range(ROUNDS):  # changes, each a view to every stream, until the unread one's buffers are full
            for _ in range(25):
                assert mine.call("DELETE", f"{game}/seats/1", token=host)[0] == 204
                assert mine.call("POST", f"{game}/seats", {"name": "y" * 40, "seat": 1})[0] == 201
                for sock in held:  # these are read: they stay open
                    sock.settimeout(5)
                    assert sock.recv(1 << 20)
            replacement, answer = mine.stream(f"{game}/events")
            replacement.close()
            if answer.startswith(b"HTTP/1.1 200"):  # the unread stream ended and gave its slot back
                break
            assert answer.startswith(b"HTTP/1.1 429")
        else:
            raise AssertionError("the unread stream is still open")
        assert closed_by_the_server(unread, 10)
        for sock in held:
            assert not closed_by_the_server(sock, 0.5)
            sock.close()
