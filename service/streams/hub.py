"""One Redis subscription per server process, fanned out to the event streams open in it.

The store's compare-and-set script publishes a game's key on ``CHANGES`` in the same atomic step as each write
(``service/storage/store.py``). A ``Hub`` subscribes once per process, on the first stream opened in it. When a
watched game changes, the hub reads it once (one ``HMGET``, as a GET does) and hands that read to every stream of
the game in the process, which then renders its own reader's views (``service/streams/sse.py``): one read per
process per change, however many watch, and a woken stream has nothing left to wait for. A message carries no view,
so nothing a reader may not see travels on the channel, and a stream that missed messages (the subscription was
lost and renewed) catches up: every watched game is read again when the subscription is (re)made.

**Seats before spectators.** A read goes first to the streams of the game's seats, and to its spectators' only once
each of those has written it (``Watch.wrote``), or after ``SEATS_FIRST_SECONDS``, whichever comes first: in a race
(Bataille corse's slaps) a seat whose view comes after a crowd's has lost, and a seat's reader that reads slowly
holds the crowd no longer than that. The order holds among the streams of one process; each process fans out
its own streams so.

Waiting uses ``threading`` (greenlets under gunicorn's gevent workers, which patch it): an open stream costs an
``Event`` and a set entry here, however slowly its reader reads.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import redis

from ..records.game_record import GameRecord
from ..storage.store import CHANGES, game_key

log = logging.getLogger(__name__)

#: How long a stream waits for the process's first subscription before it goes on without (it then still
#: reads the game at every keep-alive).
READY_SECONDS = 2.0
#: The longest a listener blocks in one read, and the pause before it subscribes again after a Redis error.
LISTEN_SECONDS = 1.0
RETRY_SECONDS = 1.0
#: How long a stream waits for a read it asked the hub for before it reads for itself.
REFRESH_SECONDS = 2.0
#: The longest a change's spectators wait for its seats' streams to write it (see "Seats before spectators").
SEATS_FIRST_SECONDS = 0.05


class Read(NamedTuple):
    """A game as the hub read it after a change: its record and when its next event is due, or the error the read
    met (the game is gone, Redis failed), which ends the streams that get it."""

    record: GameRecord | None
    due: float | None
    error: Exception | None = None


#: What the hub reads a game with: its record and next due time (raises if it cannot).
Reader = Callable[[str], tuple[GameRecord, float | None]]


class Watch:
    """One stream's registration with its process's ``Hub``: ``woken`` is set when the hub has a newer read of its
    game (``take`` it) or when the stream should look again for itself (nothing to take). ``seat``: a seat's stream
    (set once its reader is known), served before the spectators; ``written``: the last version it wrote."""

    def __init__(self, hub: Hub, game_id: str) -> None:
        self.game_id = game_id
        self.key = game_key(game_id).encode()
        self.woken = threading.Event()
        self.seat = False
        self.written = -1
        self.closed = False
        self._news: Read | None = None
        self._hub = hub

    def deliver(self, read: Read) -> None:
        """Hand the stream ``read``, unless it already holds a newer one (two reads of one game may end out of
        order)."""
        held = self._news
        if held is None or held.record is None or read.record is None or read.record.version >= held.record.version:
            self._news = read
        self.woken.set()

    def take(self) -> Read | None:
        """The newest read handed over since the last ``take`` (``None``: none, the stream reads for itself); a
        read handed over afterwards wakes the next wait."""
        self.woken.clear()
        news, self._news = self._news, None
        return news

    def refresh(self) -> None:
        """Ask the hub to read the game again for all its streams (``woken`` when the read comes): streams woken by
        one change time out together when nothing changes, and then share one read as they share a change's."""
        self._hub._changed(self.key)

    def wrote(self, version: int) -> None:
        """Its stream wrote its reader's views up to ``version``: the spectators held for it go on."""
        self._hub._wrote(self, version)

    def close(self) -> None:
        self._hub._forget(self)


class Hub:
    """Reads a game once when it changes and hands the read to its streams, in this process."""

    def __init__(self, client: redis.Redis | redis.RedisCluster, read: Reader) -> None:
        self._client = client
        self._read = read
        self._watchers: dict[bytes, set[Watch]] = {}
        self._reading: dict[bytes, bool] = {}  # game -> another change came while it was being read
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._listener: threading.Thread | None = None
        self._seats_wrote = threading.Condition()

    def watch(self, game_id: str) -> Watch:
        """A watch of ``game_id``, woken at every change from now on (and when changes may have been missed);
        ``close()`` it when done."""
        watch = Watch(self, game_id)
        with self._lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, name="tg-events", daemon=True)
                self._listener.start()
            self._watchers.setdefault(watch.key, set()).add(watch)
        self._subscribed.wait(READY_SECONDS)
        return watch

    def _forget(self, watch: Watch) -> None:
        with self._lock:
            watchers = self._watchers.get(watch.key, set())
            watchers.discard(watch)
            if not watchers:
                self._watchers.pop(watch.key, None)
        self._wrote(watch, None)

    def _wrote(self, watch: Watch, version: int | None) -> None:
        """``watch``'s stream wrote ``version`` (``None``: it closed)."""
        with self._seats_wrote:
            if version is None:
                watch.closed = True
            else:
                watch.written = max(watch.written, version)
            self._seats_wrote.notify_all()

    def watched(self) -> int:
        """How many streams watch a game in this process."""
        with self._lock:
            return sum(len(watchers) for watchers in self._watchers.values())

    def watches(self, game_id: str) -> bool:
        """Whether a stream of this process watches ``game_id``."""
        with self._lock:
            return game_key(game_id).encode() in self._watchers

    def _changed(self, key: bytes) -> None:
        """Read the game at ``key`` for its streams, unless a read of it is under way: that read then runs once
        more when done (a read begun before a change may miss it)."""
        with self._lock:
            watchers = self._watchers.get(key)
            if not watchers:
                return
            if key in self._reading:
                self._reading[key] = True
                return
            self._reading[key] = False
            game_id = next(iter(watchers)).game_id
        threading.Thread(target=self._read_for_streams, args=(key, game_id), name="tg-read", daemon=True).start()

    def _read_for_streams(self, key: bytes, game_id: str) -> None:
        while True:
            try:
                record, due = self._read(game_id)
                read = Read(record, due)
            except Exception as error:  # handed on: each stream ends as it would have on its own read
                read = Read(None, None, error)
            with self._lock:
                watches = list(self._watchers.get(key, ()))
                again = self._reading.pop(key, False)
                if again:
                    self._reading[key] = False
            seats = [watch for watch in watches if watch.seat]
            for watch in seats:
                watch.deliver(read)
            if seats and read.record is not None:
                self._seats_first(seats, read.record.version)
            for watch in watches:
                if not watch.seat:
                    watch.deliver(read)
            if not again:
                return

    def _seats_first(self, seats: list[Watch], version: int) -> None:
        """Wait until every one of ``seats`` wrote ``version`` (or closed), ``SEATS_FIRST_SECONDS`` at most."""
        with self._seats_wrote:
            self._seats_wrote.wait_for(
                lambda: all(watch.closed or watch.written >= version for watch in seats), SEATS_FIRST_SECONDS
            )

    def _listen(self) -> None:
        """Forever: subscribe, then hand each message to ``_changed``; after any failure, subscribe again (a
        listener that died would leave every stream of the process to its keep-alive reads). An outage is logged
        when it begins and when it ends, not at every try in between."""
        lost_at: float | None = None
        while True:
            pubsub = self._client.pubsub()  # type: ignore[no-untyped-call]
            try:
                pubsub.subscribe(CHANGES)
                while True:
                    if self._handle(pubsub.get_message(timeout=LISTEN_SECONDS)) and lost_at is not None:
                        log.warning("event subscription renewed after %.1f s", time.monotonic() - lost_at)
                        lost_at = None
            except Exception as error:  # a Redis error, or the client's sockets closed under it
                if lost_at is None:
                    lost_at = time.monotonic()
                    log.warning("event subscription lost (%s); subscribing again", type(error).__name__)
            finally:
                self._subscribed.clear()
                pubsub.close()
            time.sleep(RETRY_SECONDS)

    def _handle(self, message: dict[str, Any] | None) -> bool:
        """Act on one message; ``True`` if it confirms the subscription."""
        if message is None:
            return False
        if message["type"] == "subscribe":  # from now on no change is missed; before, any may have been
            self._subscribed.set()
            with self._lock:
                keys = list(self._watchers)
            for key in keys:
                self._changed(key)
            return True
        if message["type"] == "message":
            self._changed(message["data"])
        return False
