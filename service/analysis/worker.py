"""Each process's analyses: a queue of finished games and one thread (a greenlet under gevent) that works them out
in turn, under each game's lease, resting so that it takes at most ``TG_BOT_SHARE`` percent of the process.

A route queues a game its reader asked for when no analysis is stored nor under way (``ask``); the queue holds at
most ``QUEUE`` games (one asked while it is full is dropped: its next poll asks again). Before working on a game the
thread takes its lease (``AnalysisStore.claim``): a game another process is at, or has finished meanwhile, is
skipped, so one process across all works a given game out. The lease is renewed as the work goes on; a process
that dies lets it expire, and the next poll, on any process, queues the game again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque

from thegame_core.analysis import analyse
from thegame_core.simulate import derive_seed

from ..clock.rest import Rest
from ..json_text import dumps
from ..storage.store import GameStore
from .store import RENEW_SECONDS, AnalysisStore

log = logging.getLogger(__name__)

#: The bot whose choices an analysis compares, and the most games a process keeps queued.
BOT = "best"
QUEUE = 16


def seed_of(game_id: str) -> int:
    """The seed a game's analysis derives from: its id's, so that anyone can work it out again offline."""
    return derive_seed("analysis", game_id)


class LeaseLost(Exception):
    """The game's lease is another process's now (this one stalled past its life): it finishes the work."""


class _Keeper:
    """``analyse``'s callbacks: the rest before each bot decision, and the lease renewed with the progress."""

    def __init__(self, analyses: AnalysisStore, game_id: str, token: str, share: int) -> None:
        self.analyses, self.game_id, self.token = analyses, game_id, token
        self.rest = Rest(share)
        self.done, self.total = 0, 0
        self.renewed = time.monotonic()

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self._renew()

    def pause(self) -> None:
        self.rest()
        if time.monotonic() - self.renewed >= RENEW_SECONDS:
            self._renew()

    def _renew(self) -> None:
        if not self.analyses.renew(self.game_id, self.token, self.done, self.total):
            raise LeaseLost(self.game_id)
        self.renewed = time.monotonic()


class AnalysisWorker:
    """One per process: ``ask`` queues a game; the thread, started on the first, works the queue out in order."""

    def __init__(self, games: GameStore, analyses: AnalysisStore, rollouts: int, share: int) -> None:
        self.games, self.analyses = games, analyses
        self.rollouts, self.share = rollouts, share
        self.worked = 0  # analyses this process worked out
        self._queue: deque[str] = deque()  # the first is the one being worked out
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def queued(self, game_id: str) -> bool:
        """Whether this process has the game on its queue (or is at it)."""
        with self._lock:
            return game_id in self._queue

    def ask(self, game_id: str) -> None:
        """Queue ``game_id``, unless it is queued already or the queue is full."""
        with self._lock:
            if game_id in self._queue or len(self._queue) >= QUEUE:
                return
            self._queue.append(game_id)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="tg-analysis", daemon=True)
                self._thread.start()
        self._wake.set()

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            with self._lock:
                if not self._queue:
                    self._wake.clear()
                    continue
                game_id = self._queue[0]
            try:
                self.work(game_id)
            except Exception:  # a thread of its own: nobody else would see it; the next poll asks again
                log.exception("the analysis of %s was not worked out", game_id)
            finally:
                with self._lock:
                    self._queue.popleft()

    def work(self, game_id: str) -> None:
        """Work the analysis of ``game_id`` out and store it, under its lease; nothing if another process holds the
        lease, the analysis is stored already, or the game is gone or not over."""
        token = self.analyses.claim(game_id)
        if token is None:
            return
        try:
            if self.analyses.result(game_id) is not None:
                return
            state = self.games.load(game_id).record().state
            if state is None or state.status == "playing":
                return
            keeper = _Keeper(self.analyses, game_id, token, self.share)
            analysis = analyse(
                state.replay_record(), BOT, self.rollouts, seed_of(game_id), keeper.progress, keeper.pause
            )
            self.worked += 1  # before it is stored: whoever reads it stored may count it
            self.analyses.keep(game_id, token, dumps(analysis.to_dict()))
        finally:
            self.analyses.release(game_id, token)
