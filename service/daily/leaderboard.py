"""The leaderboard of a deal and a player's rank, as the API answers them.

While the deal's day runs, the board shows names and results only: no game id (the games have no spectators
anyway) and no seed, only the seed's SHA-256, so that anyone can check afterwards that the seed published then is
the one the day was dealt from. Once the day is over it shows the seed (``thegame_core.daily_deal`` deals the game
again from it) and each result's game id, whose log and replay are then open to anyone (while the game is kept).

The yardstick, ``best`` playing every seat of the deal, is worked out in the background (``yardstick``) and kept
with the board; reads answer ``null`` meanwhile.
"""

from __future__ import annotations

from typing import Any

import thegame_core as tg
from thegame_core.daily import seed_commitment

from ..errors import ApiError
from . import Daily
from .board import Deal
from .days import over, today
from .yardstick import yardstick


def board_view(daily: Daily, deal: Deal, now: float, offset: int, limit: int) -> dict[str, Any]:
    """A page of the deal's results, best first, with the bots' yardstick and the number of players."""
    ended = over(deal.day, now)
    seed = tg.daily_seed(daily.secret.get(), deal.game, deal.players, deal.day)
    page = daily.board.page(deal, offset, limit)
    results = [_result(rank, entry, ended) for rank, entry in page.entries]
    following = offset + len(results)
    return {
        **_names(deal),
        "over": ended,
        "seed": seed if ended else None,
        "seed_sha256": seed_commitment(seed),
        "count": page.count,
        "bots": yardstick(daily, deal, today(now)),
        "results": results,
        "next": following if following < page.count else None,
    }


def _result(rank: int, entry: dict[str, Any], ended: bool) -> dict[str, Any]:
    return {
        "rank": rank,
        "name": entry["name"],
        **entry["result"],
        "team": entry["team"],
        "game_id": entry["game_id"] if ended else None,
    }


def rank_view(daily: Daily, deal: Deal, digest: str) -> dict[str, Any]:
    """The rank of a seat token's result on the deal and its percentile; ``404 not_on_board`` if it has none."""
    standing = daily.board.rank(deal, digest)
    if standing.rank is None or standing.entry is None:
        raise ApiError("not_on_board", "this token has no result on this deal (yet)")
    found = _result(standing.rank, standing.entry, True)
    return {**_names(deal), "count": standing.count, **found, "percentile": standing.percentile}


def _names(deal: Deal) -> dict[str, Any]:
    return {"game": deal.game, "players": deal.players, "date": deal.day.isoformat()}
