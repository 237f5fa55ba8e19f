"""Applying what fell due in a game, as a transaction of its own (the clock's runner and reads use it; a change
catches up inside its own transaction, ``play/changes.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..config import Settings
from ..records.game_record import GameRecord
from ..storage.store import Change, GameStore, Snapshot
from .schedule import advance


def catch_up(
    store: GameStore,
    game_id: str,
    now: float,
    settings: Settings,
    decisions: int,
    hold: Callable[[float], None] | None = None,
) -> GameRecord:
    """Apply, in one atomic transaction, what fell due in game ``game_id`` by ``now``, with at most ``decisions``
    bot decisions; return the record as written (or as read, when nothing was due). ``hold``, called between the
    decision and its write with the seconds the decision took (from asking to answer), lets the clock's runner
    decide ahead of a due time and write at it (the write still checks that nobody changed the game meanwhile).
    ``404 unknown_game`` if there is no such game."""

    def compute(snapshot: Snapshot) -> Change[GameRecord]:
        record = snapshot.record()
        started = time.perf_counter()
        caught, _ = advance(record, now, decisions)
        decided = time.perf_counter() - started
        if caught is record:
            return Change(record)
        caught = caught.stamped()
        change = Change(caught, caught.fields(), settings.ttl_of(caught, now), lasting=caught.ended_since(record))
        if hold is not None:
            hold(decided)
        return change

    return store.transact(game_id, None, compute)
