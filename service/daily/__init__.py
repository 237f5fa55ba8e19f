"""Daily deals: one deal a day per game and player count (``thegame_core.daily``), played against the server's bots,
with a leaderboard per deal.

- ``days``: the UTC day, the date rule (today or earlier), and when a day is over.
- ``secret``: the server's secret the deals are keyed by (``TG_DAILY_SECRET``, else drawn once and kept in Redis).
- ``creation``: the record of a daily game: the day's deal, the player's seat turned by the date, bots elsewhere.
- ``results``: a finished daily game's result, checked by replaying the stored game, posted after its write.
- ``board``: the results in Redis (a sorted set and a hash per deal, on the deal's slot), the bots' yardstick.
- ``yardstick``: ``best`` at every seat of a deal, worked out in the background once per deal.
- ``leaderboard``: the board and a player's rank as the API answers them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import DailyBoard
from .secret import DailySecret


@dataclass(frozen=True)
class Daily:
    """What the daily deals run on in one process: their board, the secret, and the job queue's sender of a deal's
    bots' yardstick (game, players, day)."""

    board: DailyBoard
    secret: DailySecret
    send_yardstick: Callable[[str, int, str], None]


__all__ = ["Daily", "DailyBoard", "DailySecret"]
