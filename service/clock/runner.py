"""One runner of the clock per game at a time, wherever it runs; streams only read and wait.

Every process has one ``ClockRunner``: a thread (a greenlet under gunicorn's gevent workers) that keeps, in a heap,
the due times of the games its streams watch. When one comes,
it takes that game's **lease** in Redis (``tg:{<game_id>}:clock``, a key with a short expiry: one holder at a time,
across every process), applies what fell due in one transaction (``catch_up``) and gives the lease back. The write's
change notice wakes every stream of the game in every process; a process that finds the lease taken leaves the work
to its holder and looks again once the lease would have expired, in case the holder died.

Reads use the same lease (``settle``): a GET that finds work overdue applies it if it can take the lease, and
otherwise waits for its holder's write (milliseconds) and reads again; it never shows a state not yet written, which
could be one that never comes to be if a player acts first. A game nobody watches is not run in
the background: it moves on, exactly as a timer firing on time would have moved it, as soon as someone looks (a
read, a change, a stream), so no process spends CPU on games nobody follows, and no sorted set of due times shared
by every game (a hot key on a Redis Cluster) is needed.

**Bots never starve requests.** The runner makes one bot decision at a time, in due order across games (the
earliest due first, so games share it fairly), and after each it rests in proportion to the time the decision took:
bot work takes at most ``TG_BOT_SHARE`` percent of a process's time, and requests are served in between. Each game's
run is a greenlet of its own: a decision made ahead of its due time waits for it there, while the runner goes on
to the next game, and the rest counts the decision's time, from asking to answer, not the run's Redis round trips
nor its wait (a crowd's fan-out during a run once made the runner rest as long, and a process's other games late by
up to a quarter of a second: docs/benchmarks.md, "Issue 31, seventh pass"). A run that writes nothing rests none.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import metrics
from ..config import Settings
from ..records.game_record import GameRecord
from ..storage.leases import take_lease
from ..storage.scripts import lua
from ..storage.store import GameStore
from .catch_up import catch_up
from .schedule import next_due

log = logging.getLogger(__name__)

#: How long a lease holds (ms): far longer than one catch-up, short enough that a dead holder delays its games
#: little.
LEASE_MS = 2000
#: The longest the runner sleeps without looking at its heap (seconds): a moved test clock is noticed.
LONGEST_SLEEP = 1.0
#: How long before a due time the runner decides (seconds): a bot's decision costs milliseconds of CPU (``best``
#: in Ninja, 4 to 20 ms), so it decides ahead, from the state at that moment, and the write, held until the due
#: time, checks that nobody changed the game meanwhile (else it decides again). A bot is then on time, not late by
#: its thinking.
DECIDE_AHEAD = 0.05
#: A read that finds the lease taken waits for its holder's write (seconds at most), then reads again, up to
#: ``SETTLE_TRIES`` times: a run holds the lease for its decision and its write, milliseconds.
LEASE_WAIT = 0.25
SETTLE_TRIES = 3


def lease_key(game_id: str) -> str:
    return f"tg:{{{game_id}}}:clock"


#: The most applied changes ``RunnerCounts`` keeps (the newest).
COUNTS_KEPT = 10_000


@dataclass
class RunnerCounts:
    """What the runner did, for benchmarks and tests (``gunicorn_conf.worker_exit`` logs it): runs, leases found
    taken, the time its bots' decisions took, and for each change it wrote (the newest ``COUNTS_KEPT``) its
    lateness (applied minus due, ms) and its game, version and epoch second."""

    ran: int = 0
    lost: int = 0
    busy_seconds: float = 0.0
    lateness_ms: list[float] = field(default_factory=list)
    applied: list[tuple[str, int, float]] = field(default_factory=list)

    def wrote(self, game_id: str, version: int, due: float, at: float) -> None:
        self.lateness_ms.append((at - due) * 1000)
        metrics.get().clock_lateness.observe(max(0.0, at - due))
        self.applied.append((game_id, version, at))
        del self.lateness_ms[:-COUNTS_KEPT], self.applied[:-COUNTS_KEPT]


@dataclass
class RunDecision:
    """A run's word to the runner on its bot's decision (``bots.Decision`` is what the bot decided): ``made`` once
    it is made (or the run is over without one), and the seconds it took."""

    made: threading.Event = field(default_factory=threading.Event)
    seconds: float = 0.0


class ClockRunner:
    """The clock's due work for the games of one process (see the module's docstring)."""

    def __init__(
        self, store: GameStore, settings: Settings, clock: Callable[[], float], watched: Callable[[str], bool]
    ) -> None:
        """``watched(game_id)``: whether a stream of this process watches the game (only those games it runs)."""
        self.store = store
        self.settings = settings
        self.clock = clock
        self.watched = watched
        self.counts = RunnerCounts()
        self._give_back = store.client.register_script(lua("release"))
        self._heap: list[tuple[float, str]] = []
        self._due: dict[str, float] = {}  # game -> the earliest due time in the heap (older entries are stale)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    # Asking ---------------------------------------------------------------------------------
    def due(self, game_id: str, at: float | None) -> None:
        """Run ``game_id``'s due work at ``at`` (epoch seconds; ``None``: nothing is due)."""
        if at is None:
            return
        with self._lock:
            known = self._due.get(game_id)
            if known is not None and known <= at:
                return
            self._due[game_id] = at
            heapq.heappush(self._heap, (at, game_id))
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="tg-clock", daemon=True)
                self._thread.start()
        self._wake.set()

    def settle(self, record: GameRecord, game_id: str, now: float) -> GameRecord:
        """``record`` as a read should show it at ``now``: unchanged when nothing is due; else caught up and written
        under the lease, or, when another run holds the lease, as that run wrote it (read again once it is done)."""
        for _ in range(SETTLE_TRIES):
            due = next_due(record)
            if due is None or due > now:
                break
            lease = take_lease(self.store.client, lease_key(game_id), LEASE_MS)
            if lease is not None:
                record = self._catch_up(game_id, lease, due, now, self.settings.bot_decisions)
                break
            self._wait_for_lease(game_id)
            record = self.store.load(game_id).record()
        return record  # a read enlists no game: its streams do (``due``), or the next read catches it up

    def _wait_for_lease(self, game_id: str) -> None:
        """Until the game's lease is given back (its holder has written what fell due), at most ``LEASE_WAIT``."""
        ends = time.monotonic() + LEASE_WAIT
        while self.store.client.exists(lease_key(game_id)) and time.monotonic() < ends:
            time.sleep(0.002)

    # Running --------------------------------------------------------------------------------
    def _loop(self) -> None:
        """Forever: the next game due, its run begun, and once its decision is made a rest that keeps bot work to
        its share (the run waits for its due time and writes on its own)."""
        share = self.settings.bot_share / 100
        while True:
            game_id, due = self._next()
            decision = RunDecision()
            try:
                threading.Thread(
                    target=self._run, args=(game_id, due, decision), name="tg-clock-run", daemon=True
                ).start()
            except RuntimeError:  # no thread to be had (the system's limit): the run goes on here, the loop with it
                self._run(game_id, due, decision)
            decision.made.wait()
            self.counts.busy_seconds += decision.seconds
            time.sleep(decision.seconds * (1 - share) / share)  # under gevent, requests run meanwhile

    def _next(self) -> tuple[str, float]:
        """The game whose due time came first, once it has come."""
        while True:
            with self._lock:
                while self._heap and self._due.get(self._heap[0][1]) != self._heap[0][0]:
                    heapq.heappop(self._heap)  # replaced by an earlier due time
                wait = LONGEST_SLEEP
                if self._heap:
                    due, game_id = self._heap[0]
                    wait = min(wait, due - DECIDE_AHEAD - self.clock())
                    if wait <= 0:
                        heapq.heappop(self._heap)
                        del self._due[game_id]
                        return game_id, due
                self._wake.clear()
            self._wake.wait(wait)

    def _run(self, game_id: str, due: float, decision: RunDecision) -> None:
        """One decision's worth of ``game_id``'s due work, if this process can take its lease and a stream of it
        still watches the game (its streams enlisted it; once they are gone it is left to the next read); the
        ``decision`` is ``made`` once decided, or when the run ends."""
        try:
            if not self.watched(game_id):
                return
            lease = take_lease(self.store.client, lease_key(game_id), LEASE_MS)
            if lease is None:
                self.counts.lost += 1
                self.due(game_id, self.clock() + LEASE_MS / 1000)  # its holder runs it; look again if it died
                return
            self.counts.ran += 1
            now = max(due, self.clock())  # decided for its due time, maybe ahead of it
            caught = self._catch_up(game_id, lease, due, now, 1, lambda seconds: self._decided(decision, seconds, due))
            self.due(game_id, next_due(caught))
        except Exception as error:  # a Redis fault, a game gone: streams notice; the runner goes on
            log.warning("clock of %s not run: %s", game_id, type(error).__name__)
        finally:
            decision.made.set()

    def _catch_up(
        self,
        game_id: str,
        lease: str,
        due: float,
        now: float,
        decisions: int,
        hold: Callable[[float], None] | None = None,
    ) -> GameRecord:
        """What fell due in ``game_id`` by ``now``, applied and written under ``lease``, which it gives back."""
        writes = self.store.writes
        try:
            caught = catch_up(self.store, game_id, now, self.settings, decisions, hold)
            if self.store.writes > writes:  # counted when out (its notice too): giving the lease back is not lateness
                self.counts.wrote(game_id, caught.version, due, self.clock())
        finally:
            self._give_back(keys=[lease_key(game_id)], args=[lease])
        return caught

    def _decided(self, decision: RunDecision, seconds: float, due: float) -> None:
        """The run's bot decided (in ``seconds``): the runner goes on, and the run sleeps until ``due`` (a decision
        made ahead is written at its time). A write refused (the game changed meanwhile) decides again, and says so
        here again: the runner has gone on, and counts only the first."""
        decision.seconds = seconds
        decision.made.set()
        held = due - self.clock()
        if held > 0:
            time.sleep(held)
