"""The game's side of Play now: a paired lobby as stored, and the changes of its record that follow the pool.

Each runs through the write path (``play/changes.py``: the clock first, then the step, in one compare-and-set on the
game's slot), so a paired lobby changes like any game: its event stream shows each seat taken, and the seat that
fills it starts it in the same write, whichever of its seekers' writes lands last.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

import thegame_core as tg

from ..clock.schedule import changed
from ..errors import ApiError
from ..play import tokens
from ..play.changes import Writer, change, create
from ..play.commands import Step, human_seat
from ..play.idempotency import Answer
from ..play.incoming import Incoming
from ..play.tokens import Caller
from ..records.game_record import GameRecord
from ..records.timing import OWNER
from .pool import Placed

#: A paired game's turn deadline, since strangers may walk away: after it the `best` bot plays the turn, and after
#: three missed in a row it plays the seat until its owner acts again (the clock's ``idle_turns``).
TURN_SECONDS = 60


def lobby_record(
    game: str, players: int, created_ms: int, bots_at_ms: int, bots_alone_ms: int, rated: bool
) -> GameRecord:
    """A paired lobby: the game's default options, a secret seed, open to spectators but not in the lobby list (Play
    now seats it: a stranger finds it by pressing Play now), with no host (its host token is drawn and forgotten:
    pairing seats it and starts it); rated when its pool is (every seat is a player key: pairing seats no other)."""
    options = tg.new_game(game, players, seed=0).options.to_dict()
    return GameRecord(
        game,
        players,
        options,
        secrets.randbits(63),
        tokens.token_hash(tokens.new_token()),
        seats=(None,) * players,
        turn_seconds=TURN_SECONDS,
        bots_alone_ms=bots_alone_ms,
        created_at=created_ms,
        paired=True,
        bots_at=bots_at_ms,
        rated=rated,
    )


def lobby(writer: Writer, placed: Placed, game: str, players: int, rated: bool) -> GameRecord:
    """The game of the lobby the pool placed a seeker in, stored first if nobody has yet (the pool opened it a moment
    ago: any seeker it seats there may store it, with the pool's creation time and bots' time)."""
    for _ in range(2):
        snapshot = writer.store.load(placed.game_id)
        record = GameRecord.load(snapshot.meta, snapshot.state)
        if record is not None:
            return record
        bots_alone_ms = writer.settings.bots_alone_ms
        made = lobby_record(game, players, placed.created_ms, placed.bots_at_ms, bots_alone_ms, rated)
        create(writer, placed.game_id, made)
    raise SeatLost(placed.game_id)


def parts(game_id: str, player: str, now: float, address: str) -> Incoming:
    """A change made for ``player`` (its key checked by the route), with no request headers of its own."""
    return Incoming(game_id, None, None, None, None, None, None, now, address, player)


class SeatLost(Exception):
    """The seat the pool gave is not the seeker's in the game (the game started or closed without it): the pool
    forgets it, and the seeker asks again."""


def seat(writer: Writer, incoming: Incoming, number: int, name: str, bots_at_ms: int) -> tuple[Answer, GameRecord]:
    """``incoming.player`` in seat ``number`` of the paired lobby, whose bots come at ``bots_at_ms`` as the pool
    says (0: never; its earliest seeker's wish); the seat that fills the lobby starts the game."""
    player = incoming.player
    assert player is not None

    def take(record: GameRecord, caller: Caller) -> tuple[GameRecord, Answer]:
        held = record.seats[number] if record.paired and number < record.players else None
        if held is not None and held.player == player:
            return record, Answer(200, "seat", number, record.version)
        if not record.paired or record.state is not None or held is not None or caller.role == "seat":
            raise SeatLost(incoming.game_id)
        token = tokens.new_token()
        bots_at = min((at for at in (record.bots_at, bots_at_ms) if at), default=0)  # the pool's only come sooner
        record = replace(record.with_seat(number, human_seat(name, token, player)), bots_at=bots_at)
        if not record.free_seats:
            record = changed(record.started(record.drawn_first_seat()), None, None, OWNER, incoming.now)
        return record, Answer(201, "seat", number, record.version, token)

    try:
        return change(writer, incoming, None, None, take)
    except ApiError as error:
        if error.error == "unknown_game":
            raise SeatLost(incoming.game_id) from None
        raise


def unseat(incoming: Incoming) -> Step:
    """``incoming.player`` leaves its seat of a paired lobby that has not started (a lobby left empty is deleted);
    ``409 game_started`` once it has (the seat is the player's: play it, or leave it as any seat)."""

    def leave(record: GameRecord, caller: Caller) -> tuple[GameRecord | None, Answer]:
        if record.state is not None:
            raise ApiError("game_started", "the game has started: play it, or leave the seat from the table")
        if caller.seat is None:
            return record, Answer(204, "closed", None, record.version)
        record = record.with_seat(caller.seat, None)
        return (record if record.players_bound() else None), Answer(204, "closed", None, record.version)

    return leave
