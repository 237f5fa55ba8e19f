"""Seats: anyone takes a free seat (and gets its token); the host may seat a server-side bot."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import commands
from ..errors import ApiError
from ..incoming import Incoming
from .common import OPTIONAL_BEARER, documented, incoming, reply, store
from .schemas import SeatRequestSchema, SeatTakenSchema

blp = Blueprint("seats", __name__, url_prefix="/v1/games", description="Take seats in a lobby")

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
        "game_full",
        "stale_version",
        "malformed_json",
        "validation_error",
        "seat_taken",
        "idempotency_key_reused",
        body=SeatRequestSchema,
        security=OPTIONAL_BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """Take a free seat (`seat`, or the lowest free one). The seat token is in this answer only.
        With `bot` and the host token, seat a bot: it plays by itself, `reaction_ms` after each change (default:
        the game's pace, 0 for The Game, 1500 for Ninja)."""
        parts = incoming(game_id)
        role = "host" if _wants_bot(parts) else None
        return reply(commands.change(store(), parts, role, commands.take_seat(parts, SEAT_REQUEST)))
