"""A player leaves for good: its name in its kept games becomes "deleted player" and its seats forget it (on a daily
deal's board too, and in a rated game's ratings), then its ratings (with their history and places on the
leaderboards), keys, profile and index go. Nothing else of a game changes: not its version, not its moves, not its
expiry.

The games come first, while the player's key still works: a failure there (``503``) leaves the player whole, and
the request can be sent again.
"""

from __future__ import annotations

from dataclasses import replace

from thegame_core.daily import parse_day

from ..daily.board import DailyBoard, Deal
from ..errors import ApiError
from ..ratings import Ratings, rated_games
from ..records.game_record import GameRecord
from ..storage.store import Change, GameStore, Snapshot, game_key
from . import Players
from .index import daily_key, games_key

DELETED = "deleted player"


def erase(players: Players, store: GameStore, board: DailyBoard, ratings: Ratings, player: str) -> None:
    for game_id in players.index.every(player):
        record = forget_in_game(store, game_id, player)
        if record is not None and record.daily is not None:
            deal = Deal(record.game, record.players, parse_day(record.daily))
            for held in record.seats:
                if held is not None and held.player == player and held.token is not None:
                    board.rename(deal, held.token, DELETED)
    ratings.forget(player, rated_games())
    players.accounts.forget(player, games_key(player), daily_key(player))


def forget_in_game(store: GameStore, game_id: str, player: str) -> GameRecord | None:
    """``player``'s seats in the game renamed and unbound, in the game's compare-and-set, keeping its expiry; the
    record as it was (``None``: gone, or the player holds no seat in it)."""
    ttl = int(store.client.ttl(game_key(game_id)))
    if ttl <= 0:  # gone (or no expiry, which the store never leaves)
        return None

    def rename(snapshot: Snapshot) -> Change[GameRecord | None]:
        try:
            record = snapshot.record()
        except ApiError:  # gone since
            return Change(None)
        if player not in (*record.seat_players(), *record.rated_players):
            return Change(None)
        return Change(record, forgotten(record, player).fields(), ttl)

    return store.transact(game_id, None, rename)


def forgotten(record: GameRecord, player: str) -> GameRecord:
    seats = tuple(
        replace(held, name=DELETED, player=None) if held is not None and held.player == player else held
        for held in record.seats
    )
    rated = tuple("" if held == player else held for held in record.rated_players)  # its ratings show nobody
    return replace(record, seats=seats, rated_players=rated)
