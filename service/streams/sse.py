"""What one event stream sends its reader: Server-Sent Events of the reader's views, version by version.

A stream only reads: the ``Hub``'s one read of each change of the game (every write, the clock runner's included),
which wakes it, and its own read every ``RECHECK`` keep-alives. It never applies what fell due itself: it tells its
process's ``ClockRunner`` when the game's next event is due, and the runner (one per game at a time, across
processes) writes it. It sends one ``view`` event per version it has not sent yet (``id: <version>.<nonce>``, the
ETag's tag: ``GameRecord.tag``), each rendered for its reader alone (a seat's own view, or the public view) at that
version: past states are rebuilt from the current one's history, once per wake. More than ``BACKLOG`` versions
behind (a reconnect after a long gap), in a lobby (whose past is not kept), or after a version the game's history no
longer holds (a write lost to a Redis crash or failover: a lost future), it sends one view, the current one. A
finished game's stream stays open for its rematch, ``REMATCH_WAIT`` seconds at most: it ends after the view that
carries the rematch, or at the end of that wait, and quietly when the game is gone (closed, expired), when its
reader's token no longer holds that seat, or when the store fails (the client reconnects with ``Last-Event-ID``).

Nothing is queued per stream: the next view is computed only once the previous one has been written, so a slow
reader costs its socket's buffer and one view, never a backlog in the server. Under gunicorn, a spectator's stream
waits ``Parked``: its process's fan-out writes the changes of a game being played straight to its connection.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import redis

import thegame_core as tg

from .. import json_text, metrics
from ..clock.schedule import next_due
from ..errors import ApiError
from ..http.sockets import DirectSocket
from ..play import tokens
from ..play.presenters import Ratings, Viewer, game_view
from ..ratings.finished import outcome_ratings
from ..records.game_record import CorruptRecord, GameRecord
from ..runtime import Runtime
from ..storage.store import GameStore
from .hub import REFRESH_SECONDS, Read, Watch

log = logging.getLogger(__name__)

#: The most versions sent one by one to catch up; further behind, the current view alone.
BACKLOG = 64
#: Sent first: browsers reconnect after this many milliseconds (their default is about 3 s).
RETRY_MS = 1000
KEEP_ALIVE = b": keep-alive\n\n"
#: Keep-alives between two reads of a game nobody changes (to notice that it expired): a keep-alive alone costs
#: a write to the socket, a read costs a Redis round trip and a record to load, for every open stream.
RECHECK = 4
LIVE = ("lobby", "playing")


def more_to_come(record: GameRecord, now: float, rematch_wait: int) -> bool:
    """Whether a reader of the game has more to wait for: it is in its lobby or being played, or it ended less
    than ``rematch_wait`` seconds ago with no rematch yet (the rematch is a change of its own, whose views carry
    it: a seat's, its new token)."""
    return record.status in LIVE or (record.rematch is None and now < rematch_closes(record, rematch_wait))


def rematch_closes(record: GameRecord, rematch_wait: int) -> float:
    """When the readers of a finished game stop waiting for its rematch (epoch seconds): the wait starts at its
    last action."""
    return record.timing.at + rematch_wait


@dataclass(frozen=True)
class Reader:
    """Who reads a stream: the seat's own token (``None``: none, or a player key), the digest of what was sent, the
    seat whose view it gets, and the player of a player key."""

    game_id: str
    token: str | None
    digest: str | None
    seat: int | None
    player: str | None = None

    def still_reads(self, record: GameRecord) -> bool:
        """Whether the token still names the same seat (a seat left and taken by someone else does not); a reader
        with neither a token nor a player key reads the public view whoever holds the seats."""
        if self.digest is None and self.player is None:
            return True
        try:
            caller = tokens.identify(self.digest, record.host, record.seat_tokens(), self.player, record.seat_players())
            return caller.seat == self.seat
        except ApiError:
            return False


#: The last event a reader holds: its version and the nonce of the write that made it (``None``: not known).
Seen = tuple[int, str | None]


def parse_tag(text: str) -> Seen | None:
    """An event id or ETag as a client sends it back (``<version>.<nonce>``, or a version alone); ``None`` if it is
    neither. Versions are plain ASCII digits, few enough for any version a game reaches."""
    match = _TAG.fullmatch(text.strip().strip('"'))
    return None if match is None else (int(match[1]), match[2])


_TAG = re.compile(r"([0-9]{1,18})(?:\.([0-9a-f]{1,16}))?")


def resumes_after(record: GameRecord, seen: Seen | None) -> int | None:
    """The version a stream goes on from: the reader's last one if the game's history holds it; else ``None`` (the
    current view, at once: a reader holding a lost future, or none)."""
    if seen is None or not record.knows(*seen):
        return None
    return seen[0]


def sse_event(tag: str, version: int, view: dict[str, Any]) -> bytes:
    data = json_text.dump_bytes({"version": version, "view": view})
    return b"id: %s\nevent: view\ndata: %s\n\n" % (tag.encode(), data)


def states_since(record: GameRecord, after: int) -> Iterator[tuple[int, tg.AnyState | None]]:
    """The states after version ``after`` up to the current one (``None``: a lobby). Lobby versions are not
    kept (only the current one is sent) nor are versions more than ``BACKLOG`` behind."""
    state, version = record.state, record.version
    first = max(after + 1, record.lobby_version)
    if state is not None and first < version and version - first < BACKLOG:
        game = tg.get_game(record.game)
        actions = state.replay_record()["actions"]
        past = record.state_at(first)
        yield first, past
        for number in range(first + 1, version):  # a seat changing hands during play is a version, no action
            for action in actions[past.version : record.actions_at(number)]:
                past = past.apply(game.parse_action(action))
            yield number, past
    yield version, state


#: What a change's public events are kept by: the game, the tag of its current version, the version the reader had
#: (``None``: none), and whether a finished game's end carries its ratings (an end rendered while rating it failed
#: for a moment is not what a later spectator gets once it is rated).
EventsKey = tuple[str, str, int | None, bool]


class PublicEvents:
    """The public view's events of each recent change of each game, rendered once per process and sent to every
    spectator's stream that is as far behind (a version's public view is the same for all of them; only
    ``seconds_left`` moves with time, and a client counts down from ``deadline``). Rendering them once per stream
    cost its process the views per spectator per change, and rebuilding the past versions of a change that made
    several (a move and what the referee applied after it) replayed the game's history per spectator; the oldest
    entries go once they hold more than ``capacity`` events in all (a reader far behind gets up to ``BACKLOG``)."""

    def __init__(self, capacity: int = 512) -> None:
        self.capacity = capacity
        self._events: OrderedDict[EventsKey, list[bytes]] = OrderedDict()
        self._held = 0  # events in all
        self._lock = threading.Lock()

    def events(self, key: EventsKey, render: Callable[[], Iterator[bytes]]) -> list[bytes]:
        """The events of ``key`` (the game, the tag of its current version, the version the reader had, whether its
        end carries ratings): those rendered before, else ``render``'s, kept."""
        with self._lock:
            events = self._events.get(key)
        if events is None:
            events = list(render())
            with self._lock:
                if key not in self._events:
                    self._events[key] = events
                    self._held += len(events)
                while self._held > self.capacity:
                    self._held -= len(self._events.popitem(last=False)[1])
        return events


#: One per process.
PUBLIC_EVENTS = PublicEvents()


def read_game(store: GameStore, game_id: str) -> tuple[GameRecord, float | None]:
    """The game's record and when its next event is due: what a stream needs to go on (the ``Hub`` reads it once
    per change for all its streams; a stream reads for itself only to recheck a game nothing changed)."""
    record = store.load(game_id).record()
    return record, next_due(record)


def views_since(
    reader: Reader, record: GameRecord, after: int | None, now: float, ratings: Ratings = None
) -> Iterator[bytes]:
    """The reader's events after version ``after`` (``None``: the current view); a finished rated game's end
    carries ``ratings``."""
    if after is not None and after >= record.version:
        return
    viewer = Viewer(reader.seat, reader.token, now)

    def render() -> Iterator[bytes]:
        for version, state in states_since(record, record.version - 1 if after is None else after):
            view = game_view(reader.game_id, record, viewer, state, version, ratings)
            yield sse_event(record.tag(version), version, view)

    if reader.seat is None:
        key = (reader.game_id, record.tag(record.version), after, ratings is not None)
        yield from PUBLIC_EVENTS.events(key, render)
    else:
        yield from render()


class Wake(NamedTuple):
    """How a stream's wait ended: ``woken`` (a read to take), else its time passed; ``wrote``: a parked stream's
    events were written meanwhile (its connection was not idle)."""

    woken: bool
    wrote: bool = False


class Parked:
    """A spectator's stream while it waits, under a server whose connection can be written around the response
    (``DirectSocket``): its process's fan-out writes each change of a game being played straight to the reader's
    socket (``Watch.parked``), the public events rendered once for all (``PUBLIC_EVENTS``), without waking the
    stream. Waking a stream per spectator per change cost two greenlet switches, a timer and a pass through the
    server's response, several times the write itself (docs/benchmarks.md, "Issue 31, sixth pass"). Anything else
    (a lobby, a game's end and its ratings, a lost write, a read that failed, a socket that would make the write
    wait) is left to the stream, woken as before; what a write left half done, the stream sends first."""

    def __init__(self, runtime: Runtime, reader: Reader, socket: DirectSocket) -> None:
        self.runtime = runtime
        self.reader = reader
        self.socket = socket
        self._held: tuple[GameRecord, float | None] | None = None  # the last read written, its next event's time
        self.rest = b""  # framed bytes a write left unsent

    def hold(self, record: GameRecord, due: float | None) -> None:
        """The stream sent ``record``'s events last (``due``: its next event's time)."""
        self._held = record, due

    def held(self) -> tuple[GameRecord, float | None, Seen]:
        """The last read written to the reader (held, or written parked), its next event's time and its tag."""
        assert self._held is not None, "hold() comes first"
        record, due = self._held
        return record, due, (record.version, record.nonce_at(record.version))

    def wait(self, watch: Watch, timeout: float) -> Wake:
        """Wait parked until ``watch`` is woken or ``timeout`` seconds pass; what was written meanwhile is then
        ``held``. Raises ``OSError`` when the end of a write left half done fails (the server then closes the
        connection, as when its own write fails: nothing may follow a chunk cut short)."""
        before = self._held
        with watch.parked(self.write):
            woken = watch.woken.wait(timeout)
        rest, self.rest = self.rest, b""
        if rest:
            self.socket.send_all(rest)
        return Wake(woken, self._held is not before)

    def write(self, read: Read) -> bool:
        """Write ``read``'s new public events now (``True``: done, or nothing new); ``False``: leave it to the
        stream (which meets again, on its own path, whatever failed here: a connection gone ends it)."""
        record = read.record
        if record is None or record.status != "playing" or self.rest or not self.reader.still_reads(record):
            return False
        after = resumes_after(record, self.held()[2])
        if after is None or after >= record.version:
            return after is not None  # nothing new, or a read that does not follow what was sent
        self.runtime.runner.due(self.reader.game_id, read.due)
        events = list(views_since(self.reader, record, after, self.runtime.now()))
        framed = self.socket.frame(b"".join(events))
        sent = self.socket.send_now(framed)
        if not sent:
            return False
        self.hold(record, read.due)
        self.rest = framed[sent:]
        metrics.get().events_sent["fan_out"].inc(len(events))
        return not self.rest


def stream(
    runtime: Runtime,
    watch: Watch,
    reader: Reader,
    record: GameRecord | None,
    seen: Seen | None,
    socket: DirectSocket | None = None,
) -> Generator[bytes, None, None]:
    """The events of ``reader``'s stream from ``record`` (read once ``watch`` was registered), after the version
    ``seen`` (``None``, or one the game's history no longer holds: from the current view), for at most ``lifetime``
    seconds (then the client reconnects with ``Last-Event-ID``, possibly to another process: long streams never pin
    a reader to one server). A spectator's stream waits ``Parked`` where the server hands its ``socket``."""
    parked = None if socket is None or reader.seat is not None else Parked(runtime, reader, socket)
    with metrics.get().open_streams.track_inprogress():
        yield from _events(runtime, watch, reader, record, seen, parked)


def _events(
    runtime: Runtime,
    watch: Watch,
    reader: Reader,
    record: GameRecord | None,
    seen: Seen | None,
    parked: Parked | None,
) -> Generator[bytes, None, None]:
    settings = runtime.settings
    ends_at = time.monotonic() + settings.stream_lifetime
    yield f"retry: {RETRY_MS}\n\n".encode()  # also sends the headers at once, before any event is due
    due = None if record is None else next_due(record)
    while True:
        if record is None or not reader.still_reads(record):
            return
        runtime.runner.due(reader.game_id, due)
        ratings = outcome_ratings(runtime.ratings, reader.game_id, record)
        for event in views_since(reader, record, resumes_after(record, seen), runtime.now(), ratings):
            metrics.get().events_sent["stream"].inc()
            yield event
        watch.wrote(record.version)  # the server asks for more once it wrote the last event: the spectators go on
        seen = record.version, record.nonce_at(record.version)
        if not more_to_come(record, runtime.now(), settings.rematch_wait) or time.monotonic() >= ends_at:
            return
        if parked is None:
            yield from _wait(runtime, record, ends_at, lambda timeout: Wake(watch.woken.wait(timeout)))
        else:
            parked.hold(record, due)
            yield from _wait(runtime, record, ends_at, lambda timeout: parked.wait(watch, timeout))
            record, due, seen = parked.held()
        try:  # streams only read: the hub's read (of the change that woke them, or one they asked for), or their own
            record, due = _next_read(runtime, watch, (record, due))
        except ApiError:  # the game is gone (closed, expired) or too busy: the client reconnects
            return
        except (redis.RedisError, CorruptRecord) as error:
            log.warning("event stream of %s ended: %s", reader.game_id, type(error).__name__)
            if isinstance(error, redis.RedisError):
                metrics.get().store_errors.inc()
            return


def _next_read(
    runtime: Runtime, watch: Watch, held: tuple[GameRecord, float | None]
) -> tuple[GameRecord, float | None]:
    """The hub's newest read of the game since the last one taken (none: one the stream asks the hub for, shared with
    the game's other streams; else a read of its own), unless the stream ``held`` a newer one of the same history: a
    read the hub began before the stream's own first read may end after it (a read that does not lead to the one
    held comes after a loss of writes: it is the game now)."""
    news = watch.take()
    if news is None:
        watch.refresh()
        watch.woken.wait(REFRESH_SECONDS)
        news = watch.take()
    if news is None:
        read = read_game(runtime.store, watch.game_id)
    elif news.error is not None:
        raise news.error
    else:
        assert news.record is not None
        read = news.record, news.due
    newer = held[0].version > read[0].version and held[0].knows(read[0].version, read[0].nonce_at(read[0].version))
    return held if newer else read


def _wait(runtime: Runtime, record: GameRecord, ends_at: float, wait: Callable[[float], Wake]) -> Iterator[bytes]:
    """Keep-alives until a change wakes the stream (``wait``: waits for one, at most the seconds it is given), a
    finished game's wait for its rematch ends, the stream's lifetime ends (``ends_at``, monotonic), or ``RECHECK``
    keep-alives passed with nothing written (to notice an expired game). A keep-alive goes only on a connection
    that was idle ``stream_keepalive`` seconds."""
    keep_alive, idle = runtime.settings.stream_keepalive, 0
    closes = None if record.status in LIVE else rematch_closes(record, runtime.settings.rematch_wait)
    while idle < RECHECK:  # ``closes`` is fixed while the stream waits
        left = min(ends_at - time.monotonic(), math.inf if closes is None else closes - runtime.now())
        if left <= 0:
            return
        wake = wait(min(keep_alive, left))
        if wake.woken or left <= keep_alive:
            return
        if wake.wrote:
            idle = 0
            continue
        idle += 1
        yield KEEP_ALIVE
