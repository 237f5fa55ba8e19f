"""Analyses on the job queue: a poll that finds none puts the game's parts on the queue (``ask``); workers each work
a part out (``work_part``: every ``parts``-th decision, so that parts cost alike) and the one that completes the set
puts the analysis together and stores it, once.

A part killed with its worker is run again whole by another (the queue gives it back); a part run twice writes the
same decisions (each is drawn from the seed and its index alone: ``thegame_core.analysis.Plan.decision``), and the
analysis is stored only if not already there.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable

import thegame_core as tg
from thegame_core.analysis import Decision, Plan, plan
from thegame_core.simulate import derive_seed

from ..errors import ApiError
from ..json_text import dumps
from ..storage.store import GameStore
from .store import AnalysisStore
from .waiting import AnalysisQueue, Waiting

#: The bot whose choices an analysis compares.
BOT = "best"
#: The worker, as the queue's pace counts them.
WORKER = f"{socket.gethostname()}:{os.getpid()}"


def seed_of(game_id: str) -> int:
    """The seed a game's analysis derives from: its id's, so that anyone can work it out again offline."""
    return derive_seed("analysis", game_id)


class Analyses:
    """Finished games' analyses: stored ones (``store``), those on the queue (``queue``) and their parts' jobs."""

    def __init__(
        self,
        games: GameStore,
        store: AnalysisStore,
        queue: AnalysisQueue,
        actor: Callable[[str, Callable[..., None], str], Callable[..., None]],
        rollouts: int,
        parts: int,
    ) -> None:
        self.games, self.store, self.queue = games, store, queue
        self.rollouts, self.parts = rollouts, parts
        self.worked = 0  # analyses this process put together and stored
        self._send = actor("analyse_part", self.work_part, "analysis")

    def plan(self, game_id: str, record: dict[str, object]) -> Plan:
        return plan(record, BOT, self.rollouts, seed_of(game_id))

    def ask(self, game_id: str, work: Plan) -> Waiting | None:
        """Queue the analysis ``work`` of ``game_id`` (already planned: it replays), unless it is on the queue."""
        total = len(work.spans)
        parts = max(1, min(self.parts, total))
        if self.queue.add(game_id, work.run.game.name, total, parts):
            for part in range(parts):
                self._send(game_id, part, parts)
        return self.queue.waiting(game_id)

    def work_part(self, game_id: str, part: int, parts: int) -> None:
        """Part ``part`` of ``parts``: its decisions worked out and kept; the last part puts the analysis together."""
        state = None if self.store.result(game_id) is not None else self._finished(game_id)
        if state is None:  # stored already (asked again meanwhile), or the game is gone
            self.queue.drop(game_id)
            return
        work = self.plan(game_id, state.replay_record())
        indices = range(part, len(work.spans), parts)
        self.queue.progress(game_id, part, 0, WORKER)
        started, decisions = time.perf_counter(), []
        for done, index in enumerate(indices, 1):
            decisions.append(work.decision(index).to_dict())
            self.queue.progress(game_id, part, done, WORKER)
            time.sleep(0)  # a thread of a web process (the embedded store): under gevent, its requests run here
        self.queue.measured(work.run.game.name, time.perf_counter() - started, len(decisions))
        every = self.queue.put_part(game_id, part, parts, decisions)
        if every is None:
            return
        ordered = sorted(every, key=lambda decision: int(decision["start"]))
        analysis = work.assemble([Decision.from_dict(decision) for decision in ordered])
        self.worked += 1  # before it is stored: whoever reads it stored may count it
        self.store.keep(game_id, dumps(analysis.to_dict()))
        self.queue.drop(game_id)

    def _finished(self, game_id: str) -> tg.AnyState | None:
        """The finished game, or ``None`` if it is gone or not over."""
        try:
            state = self.games.load(game_id).record().state
        except ApiError:  # unknown_game: it expired meanwhile
            return None
        return None if state is None or state.status == "playing" else state
