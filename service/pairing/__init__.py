"""Play now: a player asks for a game and is seated in the oldest open lobby of its pool that fits, or opens one
(docs/api.md, "Play now").

- ``pool``: the seekers and their lobbies in Redis, decided by one Lua script on one slot (who sits where).
- ``seating``: the game's record following the pool (each seat written by the game's compare-and-set; the seat
  that fills a lobby starts it; a lobby's ``bots_at`` lets the clock seat bots and start it).

The pool decides first, then the game is written: a seat the pool gave is the seeker's for good, and a seeker
whose write was lost (a crash in between) finds it again by asking again, which writes it. A seat the game no
longer has for the seeker (the bots came first) is forgotten by the pool, and the seeker is placed anew.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ApiError
from ..play import tokens
from ..play.changes import Writer, change
from ..play.idempotency import Answer
from ..records.game_record import GameRecord
from ..storage.store import Snapshot
from . import seating
from .pool import Placed, Pool, Window, pool_name

#: Tries of a seeker whose seat was lost (the game started or closed without it) before ``503 store_busy``.
ATTEMPTS = 3


@dataclass(frozen=True)
class Request:
    """A seeker: who (the player and the name its seat shows), what (game, players, rated) and when bots may come
    (``bots_after_s``; ``None``: never)."""

    player: str
    name: str
    game: str
    players: int
    rated: bool
    bots_after_s: int | None
    rating: float | None  # the player's rating of the game (rated only)


@dataclass(frozen=True)
class Seated:
    """The answer: the seat in its game, the record as written, and the seat token when the seat was taken now."""

    placed: Placed
    answer: Answer
    record: GameRecord


class Pairing:
    def __init__(self, pool: Pool) -> None:
        self.pool = pool

    def seek(self, writer: Writer, request: Request, now: float, address: str) -> Seated:
        """Seat ``request``'s player (``409 already_pairing`` while it waits in another pool)."""
        now_ms = int(now * 1000)
        wanted = pool_name(request.game, request.players, request.rated)
        bots_at = 0 if request.bots_after_s is None else now_ms + request.bots_after_s * 1000
        for _ in range(ATTEMPTS):
            new_id = tokens.new_game_id()
            placed = self.pool.seek(request.player, wanted, new_id, now_ms, request.players, request.rating, bots_at)
            if placed.pool != wanted:
                raise ApiError(
                    "already_pairing",
                    f"this player waits for a game already ({placed.pool.replace(':', ', ')}): stop waiting first",
                )
            lobby = seating.lobby(writer, placed, request.game, request.players, request.rated)
            held = lobby.seats[placed.seat] if placed.seat < lobby.players else None
            bots_due = lobby.state is None and 0 < lobby.bots_at <= now_ms  # the change below applies them
            if held is not None and held.player == request.player and not bots_due:  # asked again: nothing to write
                return Seated(placed, Answer(200, "seat", placed.seat, lobby.version), lobby)
            try:
                incoming = seating.parts(placed.game_id, request.player, now, address)
                answer, record = seating.seat(writer, incoming, placed.seat, request.name, placed.bots_at_ms)
                return Seated(placed, answer, record)
            except seating.SeatLost:
                self.pool.leave(request.player, placed.game_id, now_ms, freed=False)
        raise ApiError("store_busy", "the seats found were taken meanwhile; ask again")

    def waiting_at(self, snapshot: Snapshot, seat: int) -> str | None:
        """The player who waits for Play now at ``seat`` of the game read as ``snapshot``, if it is a paired lobby:
        a seat left from the table must be given back to the pool too, or it would hold a place nobody fills."""
        record = GameRecord.load(snapshot.meta, snapshot.state)
        if record is None or not record.paired or record.state is not None or not 0 <= seat < record.players:
            return None
        held = record.seats[seat]
        return None if held is None else held.player

    def stop(self, writer: Writer, player: str, now: float, address: str) -> None:
        """``player`` stops waiting, if it waits: its seat is freed in the game, then in the pool (``409
        game_started`` once the game has started)."""
        game_id = self.pool.held(player, int(now * 1000))
        if game_id is None:
            return
        incoming, freed = seating.parts(game_id, player, now, address), True
        try:
            change(writer, incoming, None, None, seating.unseat(incoming))
        except ApiError as error:
            if error.error != "unknown_game":
                raise
            freed = False  # the game is gone: so is its lobby
        self.pool.leave(player, game_id, int(now * 1000), freed)


__all__ = ["Pairing", "Pool", "Request", "Seated", "Window"]
