"""Seats before spectators across server processes: two ``Hub`` instances, each with a client of its own, stand for
two processes over one Redis (the real one at $REDIS_URL; ``test_cluster.py`` runs the first test again on a Redis
Cluster). The game is a record whose version the test moves on, announced on ``CHANGES`` as the store's writes are.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from redis.crc import key_slot

from service.records.game_record import GameRecord
from service.storage.store import CHANGES, game_key, seat_streams_key
from service.streams.hub import HOLD_SECONDS, RENEW_SECONDS, Hub, Watch

#: The spectators' longest wait in these tests: only a seat stream's write (or another process's word) ends it.
HELD = 60.0


class Game:
    """A game as the hubs read it: its version, moved on and announced by ``change``."""

    def __init__(self, client: redis.Redis) -> None:
        self.id = f"seats-first-{secrets.token_hex(4)}"
        self.version = 1
        self._client = client

    def read(self, game_id: str) -> tuple[GameRecord, float | None]:
        assert game_id == self.id
        return GameRecord("the-game", 2, {}, 0, "host", None, self.version, (None, None)), None

    def change(self) -> int:
        self.version += 1
        self._client.publish(CHANGES, game_key(self.id))
        return self.version


def got(watch: Watch) -> int:
    """The version of the read next handed to ``watch``."""
    assert watch.woken.wait(10), "no read came"
    news = watch.take()
    assert news is not None and news.record is not None
    return news.record.version


def test_a_spectator_waits_for_the_seat_stream_another_process_holds(connect: Callable[[], redis.Redis]) -> None:
    """Process B holds the seat's stream, process A a spectator's: A hands the spectator a change only once B said
    its seat stream wrote it (B's seat got it at once, and holds it unwritten meanwhile)."""
    game = Game(connect())
    a, b = Hub(connect(), game.read, seats_first=HELD), Hub(connect(), game.read, seats_first=HELD)
    seat = b.watch(game.id)
    seat.seated()
    assert got(seat) == 1  # B's read of every watched game once subscribed
    seat.wrote(1)
    spectator = a.watch(game.id)
    assert got(spectator) == 1  # A's, likewise (a read that catches up waits for no other process)
    version = game.change()
    assert got(seat) == version
    assert not spectator.woken.wait(0.5), "the spectator had the change before the seat's stream wrote it"
    seat.wrote(version)
    assert got(spectator) == version
    seat.close()
    spectator.close()


def test_without_the_other_process_s_word_the_spectator_goes_on_after_the_wait(
    connect: Callable[[], redis.Redis],
) -> None:
    """B's seat stream never writes the change: A's spectator gets it anyway, once A's wait is over."""
    game = Game(connect())
    a, b = Hub(connect(), game.read), Hub(connect(), game.read)
    seat = b.watch(game.id)
    seat.seated()
    assert got(seat) == 1
    spectator = a.watch(game.id)
    assert got(spectator) == 1
    version = game.change()
    assert got(spectator) == version
    assert got(seat) == version  # handed over, never written
    seat.close()
    spectator.close()


@pytest.mark.parametrize("alive", [True, False], ids=["live entry", "stale entry"])
def test_only_a_live_registry_entry_holds_the_spectators(connect: Callable[[], redis.Redis], alive: bool) -> None:
    """A process listed in the registry that never speaks: its entry holds the spectators while it is valid (they
    then get the change when the wait is over), and not once its time is past (a process that died)."""
    client = connect()
    game = Game(client)
    client.hset(seat_streams_key(game.id), "silent", f"{time.time() + (60 if alive else -1):.3f}")
    client.expire(seat_streams_key(game.id), 120)
    hub = Hub(connect(), game.read, seats_first=5 if alive else HELD)
    spectator = hub.watch(game.id)
    assert got(spectator) == 1
    version = game.change()
    if alive:
        assert not spectator.woken.wait(0.5), "the spectator had the change before the listed process said a word"
    assert got(spectator) == version
    spectator.close()


def test_a_process_is_listed_while_it_holds_a_seat_stream_of_the_game(connect: Callable[[], redis.Redis]) -> None:
    client = connect()
    game = Game(client)
    hub = Hub(connect(), game.read)
    key = seat_streams_key(game.id)
    assert key_slot(key.encode()) == key_slot(game_key(game.id).encode())  # one slot on a Redis Cluster
    spectator = hub.watch(game.id)
    assert client.hgetall(key) == {}  # a spectator's stream is not listed
    seats = [hub.watch(game.id) for _ in range(2)]
    for seat in seats:
        seat.seated()
    (until,) = client.hgetall(key).values()
    assert float(until) > time.time() and 0 < client.ttl(key) <= HOLD_SECONDS + RENEW_SECONDS
    assert list(client.hgetall(key)) == [hub.process.encode()]
    seats[0].close()
    assert list(client.hgetall(key)) == [hub.process.encode()]  # one seat stream left
    seats[1].close()
    assert client.hgetall(key) == {}
    spectator.close()


class SlowDeletes:
    """A client (the real one) whose deletions, sent alone or in a pipeline, wait until ``go`` is set: a stream's
    release then reaches Redis after whatever the hub does meanwhile."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self.deleting = threading.Event()
        self.go = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def _wait(self) -> None:
        self.deleting.set()
        assert self.go.wait(10)

    def hdel(self, *args: Any) -> Any:
        self._wait()
        return self._client.hdel(*args)

    def pipeline(self, *args: Any, **options: Any) -> Any:
        pipe = self._client.pipeline(*args, **options)
        send = pipe.execute

        def execute() -> Any:
            if any(command[0][0] == "HDEL" for command in pipe.command_stack):
                self._wait()
            return send()

        pipe.execute = execute  # type: ignore[method-assign,assignment]
        return pipe


def test_a_seat_stream_opened_as_the_last_one_closes_keeps_the_process_listed(
    connect: Callable[[], redis.Redis],
) -> None:
    """A player's device reconnects: its old stream, the process's only seat stream of the game, closes, and while
    that release is on its way to Redis the new one opens. The process stays listed (the release landing last
    would unlist it until its next renewal, 15 s, and the spectators of other processes would not wait for it)."""
    client = connect()
    game = Game(client)
    slow = SlowDeletes(connect())
    hub = Hub(slow, game.read)  # type: ignore[arg-type]
    old = hub.watch(game.id)
    old.seated()
    closing = threading.Thread(target=old.close)
    closing.start()
    assert slow.deleting.wait(10)  # the release is on its way
    new = hub.watch(game.id)
    opening = threading.Thread(target=new.seated)
    opening.start()
    opening.join(0.5)  # room for the new stream's entry to land first, if nothing orders the two
    slow.go.set()
    closing.join(10)
    opening.join(10)
    assert list(client.hgetall(seat_streams_key(game.id))) == [hub.process.encode()]
    new.close()
    assert client.hgetall(seat_streams_key(game.id)) == {}
