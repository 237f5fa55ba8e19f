"""The bots' yardstick of a deal, worked out in the background: ``best`` at every seat of a deal costs up to a few
seconds of CPU (Ninja for two, about 4 s), far too long for a request.

The first read of a board that finds none claims the deal (a key set only if absent, so one process across all
works it out) and starts a thread (a greenlet under gunicorn's gevent workers) that plays the game, resting before
each decision in proportion to the time the last one took, as the clock's runner does (``TG_BOT_SHARE``): requests
are served meanwhile. Reads answer ``null`` until it is stored. Only deals whose board may still exist (their day
within ``TG_DAILY_TTL``) get one, so the work any client can ask for is bounded.
"""

from __future__ import annotations

import logging
import threading
from datetime import date, timedelta
from typing import Any

import thegame_core as tg
from thegame_core.daily import bots_result

from ..clock.rest import Rest
from . import Daily
from .board import Deal

log = logging.getLogger(__name__)


def yardstick(daily: Daily, deal: Deal, today: date) -> dict[str, Any] | None:
    """The stored yardstick; else ``None``, having started its work if no process is at it and the deal's board may
    still exist."""
    stored = daily.board.bots(deal)
    if stored is not None or deal.day < today - timedelta(seconds=daily.board.ttl):
        return stored
    if daily.board.claim_bots(deal):
        threading.Thread(target=work_out, args=(daily, deal), name="tg-yardstick", daemon=True).start()
    return None


def work_out(daily: Daily, deal: Deal) -> None:
    """Play the deal with ``best`` at every seat and store the result (a failure is logged: a later read retries
    once the claim expires)."""
    try:
        dealt = tg.daily_deal(deal.game, deal.players, deal.day, secret=daily.secret.get())
        daily.board.store_bots(deal, bots_result(dealt, pause=Rest(daily.bot_share)))
    except Exception:  # a thread of its own: nobody else would see it
        log.exception("the yardstick of %s was not worked out", deal)
