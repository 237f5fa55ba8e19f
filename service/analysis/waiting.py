"""The analyses on the job queue, on the queue's Redis: which games wait (a sorted set by the time they were asked
for), each one's work (a hash: its game, decisions and parts, how far each part is, the parts' decisions once worked
out) and the workers' measured pace, from which a poll tells its queue position and the seconds left.

    <ns>:analysis:queued         sorted set: game id -> when asked (ms); dropped once stored, or after STALE_MS
    <ns>:analysis:<game_id>      hash: game, total, parts; d<k> decisions part k has done; p<k> its decisions (JSON)
    <ns>:analysis:pace           hash: game name -> a worker's seconds per decision (a moving average)
    <ns>:analysis:workers        sorted set: worker -> when it last said how far it is (ms)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import redis

from ..storage.scripts import lua
from ..storage.store import text

#: An analysis still not stored this long after it was asked for is dropped (its parts failed every retry): the next
#: poll asks for it again. Its work hash expires then too.
STALE_MS = 30 * 60 * 1000
#: A worker that said nothing for this long no longer counts among those sharing the queue.
WORKER_GONE_MS = 60_000
#: Weight of the newest measure in the moving average of the pace.
PACE_WEIGHT = 0.3


@dataclass(frozen=True)
class Waiting:
    """An analysis on the queue as a poll finds it: decisions done and in all, the analyses ahead of it (0: being
    worked on) and the seconds it may still take (``None`` before a worker measured that game's pace)."""

    done: int
    total: int
    position: int
    eta_s: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"done": self.done, "total": self.total, "queue_position": self.position, "eta_s": self.eta_s}


def _now_ms() -> int:
    return int(time.time() * 1000)


class AnalysisQueue:
    """The queue's bookkeeping of analyses over one plain Redis client (``namespace`` as the broker's)."""

    def __init__(self, client: redis.Redis, namespace: str) -> None:
        self.client = client
        self.prefix = f"{namespace}:analysis:"
        self.queued_key = f"{self.prefix}queued"
        self._part = client.register_script(lua("analysis_part"))

    def work_key(self, game_id: str) -> str:
        return f"{self.prefix}{game_id}"

    def add(self, game_id: str, game: str, total: int, parts: int) -> bool:
        """Put the analysis on the queue: True for the one caller that should send its parts' jobs."""
        self.client.zremrangebyscore(self.queued_key, 0, _now_ms() - STALE_MS)
        if not self.client.zadd(self.queued_key, {game_id: _now_ms()}, nx=True):
            return False
        key = self.work_key(game_id)
        with self.client.pipeline() as pipe:
            pipe.delete(key)  # a stale attempt's parts
            pipe.hset(key, mapping={"game": game, "total": total, "parts": parts})
            pipe.pexpire(key, STALE_MS)
            pipe.execute()
        return True

    def drop(self, game_id: str) -> None:
        """The analysis is stored, or cannot be (its game is gone): off the queue."""
        with self.client.pipeline() as pipe:
            pipe.zrem(self.queued_key, game_id)
            pipe.delete(self.work_key(game_id))
            pipe.execute()

    def progress(self, game_id: str, part: int, done: int, worker: str) -> None:
        """Part ``part`` has ``done`` decisions (0: it began; a retried part starts again from 0)."""
        with self.client.pipeline() as pipe:
            pipe.hset(self.work_key(game_id), f"d{part}", done)
            pipe.pexpire(self.work_key(game_id), STALE_MS)  # a part run again after the set was complete
            pipe.zadd(f"{self.prefix}workers", {worker: _now_ms()})
            pipe.execute()

    def measured(self, game: str, seconds: float, decisions: int) -> None:
        """A worker took ``seconds`` for ``decisions`` of a ``game``: the pace's moving average follows."""
        if decisions <= 0:
            return
        pace = seconds / decisions
        key = f"{self.prefix}pace"
        old = text(self.client.hget(key, game))
        self.client.hset(key, game, pace if old is None else (1 - PACE_WEIGHT) * float(old) + PACE_WEIGHT * pace)

    def put_part(self, game_id: str, part: int, parts: int, decisions: list[dict[str, Any]]) -> list[Any] | None:
        """Store part ``part``'s decisions; every part's decisions, in order, to the one call that completes them."""
        answer = self._part(keys=[self.work_key(game_id)], args=[f"p{part}", json.dumps(decisions), parts])
        if not answer:
            return None
        return [decision for decisions_text in answer for decision in json.loads(decisions_text)]

    def waiting(self, game_id: str) -> Waiting | None:
        """Where the analysis of ``game_id`` is on the queue, or ``None`` if it is not on it."""
        self.client.zremrangebyscore(self.queued_key, 0, _now_ms() - STALE_MS)
        found: int | None = self.client.zrank(self.queued_key, game_id)  # type: ignore[assignment]
        if found is None:
            return None
        rank = int(found)
        members: list[bytes] = self.client.zrange(self.queued_key, 0, rank - 1) if rank else []  # type: ignore[assignment]
        ahead = [text(member) or "" for member in members]
        with self.client.pipeline() as pipe:
            for member in [game_id, *ahead]:
                pipe.hgetall(self.work_key(member))
            pipe.hgetall(f"{self.prefix}pace")
            pipe.zremrangebyscore(f"{self.prefix}workers", 0, _now_ms() - WORKER_GONE_MS)
            pipe.zcard(f"{self.prefix}workers")
            answers = pipe.execute()
        *works, paces, _, workers = answers
        mine = _fields(works[0])
        done = sum(int(value) for field, value in mine.items() if field.startswith("d"))
        total = int(mine.get("total", 0))
        started = any(field.startswith("d") for field in mine)
        pace = {text(name) or "": float(value) for name, value in paces.items()}
        seconds = [_left(_fields(work), pace) for work in works]
        eta = None if None in seconds else round(sum(s or 0.0 for s in seconds) / max(1, workers))
        return Waiting(done, total, 0 if started else rank, eta)


def _fields(work: dict[bytes, bytes]) -> dict[str, str]:
    return {text(field) or "": text(value) or "" for field, value in work.items()}


def _left(work: dict[str, str], pace: dict[str, float]) -> float | None:
    """A worker's seconds left on one analysis: its decisions not done yet at its game's pace (None: unknown)."""
    if "game" not in work or work["game"] not in pace:
        return None
    done = sum(int(value) for field, value in work.items() if field.startswith("d"))
    return max(0, int(work["total"]) - done) * pace[work["game"]]
