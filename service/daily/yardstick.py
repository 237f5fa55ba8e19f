"""The bots' yardstick of a deal, worked out on the job queue (``service/jobs.py``): ``best`` at every seat of a deal
costs up to a few seconds of CPU (Ninja for two, about 4 s), far too long for a request, and never runs in a web
process.

The first read of a board that finds none claims the deal (a key set only if absent, so one request across all
queues it) and queues the job; reads answer ``null`` until a worker stores it. A job run twice (its worker killed
before it said so) stores the same result again. Only deals whose board may still exist (their day within
``TG_DAILY_TTL``) get one, so the work any client can ask for is bounded.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import thegame_core as tg
from thegame_core.daily import bots_result

from . import Daily
from .board import DailyBoard, Deal
from .secret import DailySecret


def yardstick(daily: Daily, deal: Deal, today: date) -> dict[str, Any] | None:
    """The stored yardstick; else ``None``, having queued its work if no request did and the deal's board may still
    exist."""
    stored = daily.board.bots(deal)
    if stored is not None or deal.day < today - timedelta(seconds=daily.board.ttl):
        return stored
    if daily.board.claim_bots(deal):
        daily.send_yardstick(deal.game, deal.players, deal.day.isoformat())
    return None


def job(board: DailyBoard, secret: DailySecret) -> Callable[[str, int, str], None]:
    """The queue's job: play the deal with ``best`` at every seat and store the result (one that raises is retried
    by the queue; a later read queues it again once the claim expires)."""

    def work_out(game: str, players: int, day: str) -> None:
        deal = Deal(game, players, date.fromisoformat(day))
        dealt = tg.daily_deal(deal.game, deal.players, deal.day, secret=secret.get())
        board.store_bots(deal, bots_result(dealt))

    return work_out
