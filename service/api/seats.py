"""Seats: anyone takes a free seat (and gets its token); the host may seat a server-side bot; a seat may be left."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from ..errors import ApiError
from ..play import commands
from ..play.incoming import Incoming
from ..play.tokens import TokenRole
from .context import change, incoming, now_ms, runtime
from .documented import BEARER, OPTIONAL_BEARER, documented
from .schemas import SEAT
from .seat_schemas import SeatRequestSchema, SeatTakenSchema

blp = Blueprint("seats", __name__, url_prefix="/v1/games", description="Take and leave seats")

# Request schemas are built once: loading with a shared instance is safe, and building one costs.
SEAT_REQUEST = SeatRequestSchema()


def _wants_bot(parts: Incoming) -> bool:
    """Seating a bot needs the host token: peek at the body (its errors answer later, in order)."""
    try:
        document = parts.document()
    except ApiError:  # a malformed body is reported later, at the body step
        return False
    return isinstance(document, dict) and document.get("bot") is not None


@blp.route("/<game_id>/seats")
class Seats(MethodView):
    @blp.response(201, SeatTakenSchema)
    @documented(
        blp,
        "take_seat",
        "unknown_game",
        "invalid_token",
        "forbidden",
        "game_started",
        "game_over",
        "game_full",
        "stale_version",
        "malformed_json",
        "validation_error",
        "seat_taken",
        "seat_left",
        "already_seated",
        "rated_needs_player",
        "rated_no_bots",
        "idempotency_key_reused",
        body=SeatRequestSchema,
        security=OPTIONAL_BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """Take a free seat (`seat`, or the lowest free one): in the lobby, or during play a seat someone left
        (its bot steps aside). The seat token is in this answer only. With `bot` and the host token, seat a bot:
        it plays by itself, `reaction_ms` after each change on average (default: the game's pace, 0 for The Game,
        1500 for Ninja, 450 for Bataille corse)."""
        parts = incoming(game_id)
        role: TokenRole | None = "host" if _wants_bot(parts) else None
        return change(parts, role, commands.take_seat(parts, SEAT_REQUEST))


#: Seats are numbered from 0 (each game has its own count).
SEAT_PARAMETER = {
    "in": "path",
    "name": "seat",
    "schema": {"type": "integer", "minimum": SEAT.min, "maximum": SEAT.max},
    "description": "one of the game's seats, from 0",
}


@blp.route("/<game_id>/seats/<int(signed=True):seat>", parameters=[SEAT_PARAMETER])
class SeatOf(MethodView):
    @blp.response(204)
    @documented(
        blp,
        "leave_seat",
        "unknown_game",
        "not_found",
        "invalid_token",
        "forbidden",
        "game_over",
        "stale_version",
        "validation_error",
        "seat_free",
        "idempotency_key_reused",
        security=BEARER,
        changes=True,
    )
    def delete(self, game_id: str, seat: int) -> Response:
        """Leave `seat`, with its own token or the host token. In the lobby the seat is free again (a public
        lobby is listed again). During play the seat's token stops working and a bot plays the seat (the `best`
        bot; a bot seat keeps its own) until someone takes it with `POST .../seats`; its view entry then has
        `name: null`."""
        parts = incoming(game_id)
        waiting = runtime().pairing.waiting_at(runtime().store.load(game_id), seat)
        response = change(parts, None, commands.leave(parts, seat), commands.LEAVE_NEEDS_TOKEN)
        if waiting is not None:  # a Play now seat left from the table: its seeker stops waiting there too
            runtime().pairing.pool.leave(waiting, game_id, now_ms())
        return response
