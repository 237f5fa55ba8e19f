"""One Redis subscription per server process, fanned out to the event streams open in it.

The store's compare-and-set script publishes a game's key on ``CHANGES`` in the same atomic step as each write
(``service/storage/store.py``). A ``Hub`` subscribes once per process, on the first stream opened in it. When a
watched game changes, the hub reads it once (one ``HMGET``, as a GET does) and hands that read to every stream of
the game in the process, which then renders its own reader's views (``service/streams/sse.py``): one read per
process per change, however many watch, and a woken stream has nothing left to wait for (a stream that waits
``parked`` is not even woken for a read its writer takes: under gunicorn, a spectator's stream of a game being
played, whose public events the fan-out then writes straight to its connection). A message carries no view,
so nothing a reader may not see travels on the channel, and a stream that missed messages (the subscription was
lost and renewed) catches up: every watched game is read again when the subscription is (re)made.

**Seats before spectators, across processes.** In a race (Bataille corse's slaps) a seat whose view comes after a
crowd's has lost. A read goes first to the streams of the game's seats in the process; its spectators' streams get
it once every seat stream of the game, in every process, has written it (``Watch.wrote``), or after
``seats_first`` seconds (``TG_SEATS_FIRST_MS``, 50 ms), whichever comes first: a seat's reader that reads slowly
holds the crowd no longer than that. Across processes:

- each process that holds seat streams of a game keeps an entry in the game's registry (``seat_streams_key``, a
  hash on the game's slot: its process id and until when the entry holds, epoch seconds); it writes it when its
  first seat stream of the game opens, renews every entry it holds every ``RENEW_SECONDS`` (from the listener's
  loop, whatever the streams' keep-alive period), and deletes it when its last one closes (one such write at a
  time, each writing what the process holds as it writes: a release racing a new seat stream leaves the entry);
  the key expires soon after its last renewal, so a process that died drops out;
- once its own seat streams wrote a version, such a process says so on ``SEATS_WROTE`` (``<process> <version>
  <game key>``: one message per change per process holding seat streams);
- a process with spectators of the game reads the registry after its read of a change, while its own seats'
  streams write it (one ``HGETALL`` per change per process, not per stream, delaying no seat), and its spectators
  wait until every other live process in it said it wrote that
  version or a newer one. The listener keeps, per watched game, the newest version each process said.

A read that catches up after a (re)subscription does not wait for other processes (their word may have been
missed), nor does one of a version the spectators already have (a stream's look after its keep-alives).

**A crowd in batches.** Under gevent a greenlet runs until it waits, and a fan-out to a crowd's parked streams
never does (each write is made without waiting): it yields after every ``FAN_OUT_BATCH`` spectators, so that a bot
due meanwhile, a seat's request or another game's change waits one batch, not the whole crowd.

Waiting uses ``threading`` (greenlets under gunicorn's gevent workers, which patch it): an open stream costs an
``Event`` and a set entry here, however slowly its reader reads.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import redis

from .. import metrics
from ..records.game_record import GameRecord
from ..storage.redis_client import STORE_FAILURES
from ..storage.store import CHANGES, game_key, seat_streams_key, text

log = logging.getLogger(__name__)

#: How long a stream waits for the process's first subscription before it goes on without (it then still
#: reads the game at every keep-alive).
READY_SECONDS = 2.0
#: The longest a listener blocks in one read, and the pause before it subscribes again after a Redis error.
LISTEN_SECONDS = 1.0
RETRY_SECONDS = 1.0
#: How long a stream waits for a read it asked the hub for before it reads for itself.
REFRESH_SECONDS = 2.0
#: The longest a change's spectators wait for its seats' streams to write it, by default (see "Seats before
#: spectators").
SEATS_FIRST_SECONDS = 0.05
#: Where a process says its seat streams of a game wrote a version (``<process> <version> <game key>``).
SEATS_WROTE = "tg:seats-wrote"
#: The fan-out lets other work run after each this many spectators: a bot due, a request, another game's seats wait
#: at most one batch (about 1 ms), not a whole crowd (150 spectators per process: about 12 ms).
FAN_OUT_BATCH = 16
#: A process's entry in a game's registry of seat-stream holders holds this long, and is renewed this often; the
#: registry's key expires ``HOLD_SECONDS + RENEW_SECONDS`` after its last write.
HOLD_SECONDS = 45
RENEW_SECONDS = 15


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
    (``seated`` once its reader is known), served before the spectators; ``written``: the last version it wrote
    (kept for a seat's: no one waits for a spectator's)."""

    def __init__(self, hub: Hub, game_id: str) -> None:
        self.game_id = game_id
        self.key = game_key(game_id).encode()
        self.woken = threading.Event()
        self.seat = False
        self.written = -1
        self.closed = False
        self._news: Read | None = None
        self._hub = hub
        self._direct: Callable[[Read], bool] | None = None
        self._parking = threading.Lock()

    def seated(self) -> None:
        """The stream is a seat's: the spectators of every process wait for it (raises if Redis fails)."""
        self.seat = True
        self._hub._seated(self)

    def deliver(self, read: Read) -> None:
        """Hand the stream ``read``, unless it already holds a newer one (two reads of one game may end out of
        order), or unless the stream waits ``parked`` and its writer took it."""
        if self._direct is not None:  # read again under the lock: the stream may have left its block since
            with self._parking:
                if self._direct is not None and self._wrote_parked(self._direct, read):
                    return
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

    def _wrote_parked(self, direct: Callable[[Read], bool], read: Read) -> bool:
        """Whether the parked stream's writer ``direct`` took ``read``; any failure of it leaves the read to the
        stream, which meets it on its own path (and the fan-out goes on to the game's other streams)."""
        try:
            return direct(read)
        except Exception as error:
            log.debug("a parked stream of %s woken: its writer failed (%s)", self.game_id, type(error).__name__)
            return False

    @contextmanager
    def parked(self, direct: Callable[[Read], bool]) -> Iterator[None]:
        """While the stream waits in this block, each read goes first to ``direct``, which writes it to the reader
        at once (``True``) or leaves it to the stream (``False``: it is woken as when not parked). A read is never
        handed to ``direct`` once the block is left."""
        with self._parking:
            self._direct = direct
        try:
            yield
        finally:
            with self._parking:
                self._direct = None

    def wrote(self, version: int) -> None:
        """Its stream wrote its reader's views up to ``version``: if it is a seat's, the spectators held for it go on
        (nobody waits for a spectator's: its write takes no lock and wakes no one, as it comes once per spectator)."""
        if self.seat:
            self._hub._wrote(self, version)

    def close(self) -> None:
        self._hub._forget(self)


@dataclass(eq=False)
class _Game:
    """A game watched in this process: its streams, and what orders their fan-out."""

    game_id: str
    watches: set[Watch] = field(default_factory=set)
    reading: bool | None = None  # a read of it under way (True: another change came meanwhile); None: none
    catching_up: bool = False  # the next read follows a (re)subscription: other processes' word may be missed
    handed: int = -1  # the newest version handed to its spectators here
    reported: dict[str, int] = field(default_factory=dict)  # other processes: the newest their seats wrote
    held: bool = False  # this process holds seat streams of it (its registry entry is written)


class Hub:
    """Reads a game once when it changes and hands the read to its streams, in this process."""

    def __init__(
        self, client: redis.Redis | redis.RedisCluster, read: Reader, seats_first: float = SEATS_FIRST_SECONDS
    ) -> None:
        self.process = secrets.token_hex(8)
        self.seats_first = seats_first
        self._client = client
        self._read = read
        self._games: dict[bytes, _Game] = {}
        self._lock = threading.Lock()
        self._written = threading.Condition(self._lock)  # a seat stream wrote, or another process said its did
        self._registry = threading.Lock()  # one registry write at a time (``_sync_registry``)
        self._subscribed = threading.Event()
        self._listener: threading.Thread | None = None
        self._renew_at = 0.0

    def watch(self, game_id: str) -> Watch:
        """A watch of ``game_id``, woken at every change from now on (and when changes may have been missed);
        ``close()`` it when done."""
        watch = Watch(self, game_id)
        with self._lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, name="tg-events", daemon=True)
                self._listener.start()
            self._games.setdefault(watch.key, _Game(game_id)).watches.add(watch)
        self._subscribed.wait(READY_SECONDS)
        return watch

    def _seated(self, watch: Watch) -> None:
        """``watch`` is a seat's stream: enter this process in the game's registry if it is its first."""
        with self._lock:
            game = self._games.get(watch.key)
            if game is None or game.held:
                return
            game.held = True
        self._sync_registry([watch.game_id])

    def _sync_registry(self, game_ids: list[str]) -> None:
        """Make this process's entry in the registry of each game of ``game_ids`` say what it holds as it writes:
        written (or renewed) where it holds seat streams of the game, deleted where it no longer does; one round
        trip. One such write at a time, each reading what is held once it may write: when a stream's release and
        another's hold (or a renewal) of one game race, the last write follows the last change, whichever order
        they began in (else a late deletion could unlist a process that holds seat streams, or a late renewal list
        one that no longer does)."""
        with self._registry:
            with self._lock:
                held = {game_id for game_id in game_ids if self._holds(game_id)}
            until = time.time() + HOLD_SECONDS
            pipe = self._client.pipeline(transaction=False)
            for game_id in game_ids:
                key = seat_streams_key(game_id)
                if game_id in held:
                    pipe.hset(key, self.process, f"{until:.3f}")
                    pipe.expire(key, HOLD_SECONDS + RENEW_SECONDS)
                else:
                    pipe.hdel(key, self.process)
            pipe.execute()

    def _holds(self, game_id: str) -> bool:
        game = self._games.get(game_key(game_id).encode())
        return game is not None and game.held

    def _renew(self) -> None:
        """Every ``RENEW_SECONDS``, renew the registry entries of the games whose seat streams this process holds
        (a failure is left to the next time: the entries hold ``HOLD_SECONDS``)."""
        now = time.monotonic()
        if now < self._renew_at:
            return
        self._renew_at = now + RENEW_SECONDS
        with self._lock:
            held = [game.game_id for game in self._games.values() if game.held]
        try:
            if held:
                self._sync_registry(held)
        except STORE_FAILURES as error:
            log.debug("seat-stream registry not renewed: %s", type(error).__name__)

    def _forget(self, watch: Watch) -> None:
        with self._written:
            watch.closed = True
            self._written.notify_all()
            game = self._games.get(watch.key)
            if game is None:
                return
            game.watches.discard(watch)
            if not game.watches:
                self._games.pop(watch.key, None)
            released = game.held and not any(other.seat for other in game.watches)
            if released:
                game.held = False
        if released:
            try:
                self._sync_registry([watch.game_id])
            except STORE_FAILURES as error:  # the entry expires at its time
                log.debug("seat-stream registry entry not deleted: %s", type(error).__name__)

    def _wrote(self, watch: Watch, version: int) -> None:
        with self._written:
            watch.written = max(watch.written, version)
            self._written.notify_all()

    def watched(self) -> int:
        """How many streams watch a game in this process."""
        with self._lock:
            return sum(len(game.watches) for game in self._games.values())

    def watches(self, game_id: str) -> bool:
        """Whether a stream of this process watches ``game_id``."""
        with self._lock:
            return game_key(game_id).encode() in self._games

    def _changed(self, key: bytes, catching_up: bool = False) -> None:
        """Read the game at ``key`` for its streams, unless a read of it is under way: that read then runs once
        more when done (a read begun before a change may miss it)."""
        with self._lock:
            game = self._games.get(key)
            if game is None:
                return
            game.catching_up = game.catching_up or catching_up
            if game.reading is not None:
                game.reading = True
                return
            game.reading = False
        threading.Thread(target=self._read_for_streams, args=(game,), name="tg-read", daemon=True).start()

    def _read_for_streams(self, game: _Game) -> None:
        while True:
            try:
                record, due = self._read(game.game_id)
                read = Read(record, due)
            except Exception as error:  # handed on: each stream ends as it would have on its own read
                read = Read(None, None, error)
            with self._lock:
                watches = list(game.watches)
                again, game.reading = game.reading, (False if game.reading else None)
                catching_up, game.catching_up = game.catching_up, False
            seats = [watch for watch in watches if watch.seat]
            spectators = [watch for watch in watches if not watch.seat]
            for watch in seats:
                watch.deliver(read)
            if read.record is not None:
                try:
                    self._seats_first(game, seats, bool(spectators), read.record.version, catching_up)
                except Exception as error:  # the order only holds spectators back: they still get the change
                    log.warning("seats first skipped for %s: %s", game.game_id, type(error).__name__)
            for number, watch in enumerate(spectators, 1):
                watch.deliver(read)
                if number % FAN_OUT_BATCH == 0:
                    time.sleep(0)  # a greenlet's yield under gevent: what fell due meanwhile runs first
            if not again:
                return

    def _seats_first(self, game: _Game, seats: list[Watch], spectators: bool, version: int, catching_up: bool) -> None:
        """Wait until every one of ``seats`` (this process's) wrote ``version`` (or closed), and say so to the other
        processes; for ``spectators``, wait also until every other process holding seat streams of the game said
        its own wrote it. ``seats_first`` seconds at most in all."""
        deadline = time.monotonic() + self.seats_first
        others = self._other_holders(game.game_id) if spectators and not catching_up and version > game.handed else []
        with self._written:
            own = self._written.wait_for(
                lambda: all(watch.closed or watch.written >= version for watch in seats), self.seats_first
            )
        if seats and own:
            self._say_wrote(game, version)
        with self._written:
            done = own and self._written.wait_for(
                lambda: all(game.reported.get(other, -1) >= version for other in others),
                max(0.0, deadline - time.monotonic()),
            )
            if spectators:
                game.handed = max(game.handed, version)
        if spectators and (seats or others):
            metrics.get().spectator_waits.labels("seats" if done else "timeout").inc()

    def _other_holders(self, game_id: str) -> list[str]:
        """The other processes whose registry entry for the game still holds (none if Redis fails to say)."""
        try:
            entries = self._client.hgetall(seat_streams_key(game_id))
            now = time.time()
            return [
                process
                for name, until in entries.items()
                if (process := text(name)) != self.process and float(text(until)) > now
            ]
        except (*STORE_FAILURES, ValueError) as error:
            log.debug("seat-stream registry not read: %s", type(error).__name__)
            return []

    def _say_wrote(self, game: _Game, version: int) -> None:
        try:
            self._client.publish(
                SEATS_WROTE, b"%s %d %s" % (self.process.encode(), version, game_key(game.game_id).encode())
            )
        except STORE_FAILURES as error:  # the others' spectators wait out their time
            log.debug("seats' write not said: %s", type(error).__name__)

    def _reported(self, data: bytes) -> None:
        """Another process said its seat streams of a game wrote a version: kept if this process watches it."""
        try:
            process, version, key = data.split(b" ", 2)
            said = int(version)
        except ValueError:
            return
        if process.decode() == self.process:
            return
        with self._written:
            game = self._games.get(key)
            if game is not None:
                name = process.decode()
                game.reported[name] = max(game.reported.get(name, -1), said)
                self._written.notify_all()

    def _listen(self) -> None:
        """Forever: subscribe, then hand each message to ``_changed`` (or ``_reported``); after any failure,
        subscribe again (a listener that died would leave every stream of the process to its keep-alive reads).
        An outage is logged when it begins and when it ends, not at every try in between. Between messages, the
        registry entries this process holds are renewed."""
        lost_at: float | None = None
        while True:
            pubsub = self._client.pubsub()  # type: ignore[no-untyped-call]
            try:
                pubsub.subscribe(CHANGES, SEATS_WROTE)
                while True:
                    if self._handle(pubsub.get_message(timeout=LISTEN_SECONDS)) and lost_at is not None:
                        log.warning("event subscription renewed after %.1f s", time.monotonic() - lost_at)
                        lost_at = None
                    self._renew()
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
        channel = text(message["channel"])
        if message["type"] == "subscribe" and channel == CHANGES:  # no change is missed from now on; any may have
            self._subscribed.set()  # been before
            with self._lock:
                keys = list(self._games)
            for key in keys:
                self._changed(key, catching_up=True)
            return True
        if message["type"] == "message":
            if channel == SEATS_WROTE:
                self._reported(message["data"])
            else:
                self._changed(message["data"])
        return False
