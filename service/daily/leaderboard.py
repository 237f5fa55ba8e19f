"""The leaderboard of a deal and a player's rank, as the API answers them.

While the deal's day runs, the board shows names and results only: no game id (the games have no spectators
anyway) and no seed, only the seed's SHA-256, so that anyone can check afterwards that the seed published then is
the one the day was dealt from. Once the day is over it shows the seed (``thegame_core.daily_deal`` deals the game
again from it) and each result's game id, whose log and replay are then open to anyone (while the game is kept).

The yardstick, ``best`` playing every seat of the deal, is computed by the first read that finds none (the others
meanwhile answer ``null``) and kept with the board.
"""

from __future__ import annotations

from typing import Any

import thegame_core as tg
from thegame_core.daily import bots_result, seed_commitment

from ..errors import ApiError
from . import Daily
from .board import Deal
from .days import over


def _deal(daily: Daily, deal: Deal) -> tg.DailyDeal:
    return tg.daily_deal(deal.game, deal.players, deal.day, secret=daily.secret.get())


def yardstick(daily: Daily, deal: Deal) -> dict[str, Any] | None:
    """The bots' result on the deal: stored, or computed now by the one read that claims it; ``None`` meanwhile."""
    stored = daily.board.bots(deal)
    if stored is not None or not daily.board.claim_bots(deal):
        return stored
    result = bots_result(_deal(daily, deal))
    daily.board.store_bots(deal, result)
    return result.to_dict()


def board_view(daily: Daily, deal: Deal, now: float, offset: int, limit: int) -> dict[str, Any]:
    """A page of the deal's results, best first, with the bots' yardstick and the number of players."""
    ended = over(deal.day, now)
    seed = _deal(daily, deal).seed
    page = daily.board.page(deal, offset, limit)
    results = [_result(rank, entry, ended) for rank, entry in page.entries]
    following = offset + len(results)
    return {
        **_names(deal),
        "over": ended,
        "seed": seed if ended else None,
        "seed_sha256": seed_commitment(seed),
        "count": page.count,
        "bots": yardstick(daily, deal),
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
    """The rank of a seat token's result on the deal; ``404 not_on_board`` if it has none."""
    count, rank, entry = daily.board.rank(deal, digest)
    if rank is None or entry is None:
        raise ApiError("not_on_board", "this token has no result on this deal (yet)")
    return {**_names(deal), "count": count, **_result(rank, entry, True)}


def _names(deal: Deal) -> dict[str, Any]:
    return {"game": deal.game, "players": deal.players, "date": deal.day.isoformat()}
