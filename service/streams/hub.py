"""One Redis subscription per server process, fanned out to the event streams open in it.

The store's compare-and-set script publishes a game's key on ``CHANGES`` in the same atomic step as each write
(``service/store.py``). A ``Hub`` subscribes once per process, on the first stream opened in it, and wakes the
streams watching the changed game; a woken stream reads the game itself (one ``HMGET``, as a GET does) and
renders its own reader's views (``service/event_stream.py``). A message carries no view, so nothing a reader may
not see travels on the channel, and a stream that missed messages (the subscription was lost and renewed) catches
up by reading: every stream is woken when the subscription is (re)made.

Waiting uses ``threading`` (greenlets under gunicorn's gevent workers, which patch it): an open stream costs an
``Event`` and a set entry here, however slowly its reader reads.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis

from ..storage.store import CHANGES, game_key

log = logging.getLogger(__name__)

#: How long a stream waits for the process's first subscription before it goes on without (it then still
#: reads the game at every keep-alive).
READY_SECONDS = 2.0
#: The longest a listener blocks in one read, and the pause before it subscribes again after a Redis error.
LISTEN_SECONDS = 1.0
RETRY_SECONDS = 1.0


class Watch:
    """One stream's registration with its process's ``Hub``: ``woken`` is set when its game changes, and
    ``woken_at`` says when (``time.monotonic()``, the same for every stream one message wakes: the streams of a
    change share the first read made after it, ``SharedReads``)."""

    def __init__(self, hub: Hub, key: bytes) -> None:
        self.key = key
        self.woken = threading.Event()
        self.woken_at = time.monotonic()
        self._hub = hub

    def wake(self, at: float) -> None:
        self.woken_at = at
        self.woken.set()

    def close(self) -> None:
        self._hub._forget(self)


class Hub:
    """Wakes the streams of a game when the game changes, in this process."""

    def __init__(self, client: redis.Redis | redis.RedisCluster) -> None:
        self._client = client
        self._watchers: dict[bytes, set[Watch]] = {}
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._listener: threading.Thread | None = None

    def watch(self, game_id: str) -> Watch:
        """A watch of ``game_id``, woken at every change from now on (and when changes may have been missed);
        ``close()`` it when done."""
        watch = Watch(self, game_key(game_id).encode())
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

    def watched(self) -> int:
        """How many streams watch a game in this process."""
        with self._lock:
            return sum(len(watchers) for watchers in self._watchers.values())

    def watches(self, game_id: str) -> bool:
        """Whether a stream of this process watches ``game_id``."""
        with self._lock:
            return game_key(game_id).encode() in self._watchers

    def _wake(self, key: bytes | None) -> None:
        """Wake the watchers of the game at ``key`` (``None``: of every game)."""
        at = time.monotonic()
        with self._lock:
            if key is None:
                watches = [watch for watchers in self._watchers.values() for watch in watchers]
            else:
                watches = list(self._watchers.get(key, ()))
        for watch in watches:
            watch.wake(at)

    def _listen(self) -> None:
        """Forever: subscribe, then hand each message to ``_wake``; after any failure, subscribe again (a
        listener that died would leave every stream of the process to its keep-alive reads)."""
        while True:
            pubsub = self._client.pubsub()  # type: ignore[no-untyped-call]
            try:
                pubsub.subscribe(CHANGES)
                while True:
                    self._handle(pubsub.get_message(timeout=LISTEN_SECONDS))
            except Exception as error:  # a Redis error, or the client's sockets closed under it
                log.warning("event subscription lost (%s); subscribing again", type(error).__name__)
            finally:
                self._subscribed.clear()
                pubsub.close()
            time.sleep(RETRY_SECONDS)

    def _handle(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        if message["type"] == "subscribe":  # from now on no change is missed; before, any may have been
            self._subscribed.set()
            self._wake(None)
        elif message["type"] == "message":
            self._wake(message["data"])
