"""Actions of any game: one route for every game's actions, one action or a batch, all or nothing."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg

from ..play import commands
from ..play.bodies import read_actions
from ..play.commands import ActionReader
from .context import change, incoming
from .documented import BEARER, VIEW, documented

blp = Blueprint("actions", __name__, url_prefix="/v1/games", description="Send any game's actions")

#: The errors of every route that applies a seat's actions.
ACT_ERRORS = (
    "unknown_game",
    "invalid_token",
    "forbidden",
    "game_not_started",
    "game_over",
    "stale_version",
    "malformed_json",
    "validation_error",
    "invalid_action",
    "not_your_turn",
    "idempotency_key_reused",
)


def seat_acts(game_id: str, read: ActionReader, route_of: str | None = None) -> Response:
    """Apply the caller seat's actions read from the body, all or nothing; answer its new view. ``route_of``: the
    one game the route serves (The Game's own routes), if not every game."""
    parts = incoming(game_id)
    return change(parts, "seat", commands.act(parts, read, route_of))


def rule_errors() -> list[str]:
    """Every game's rule codes, for the documentation."""
    return sorted({code for name in tg.game_names() for code in tg.get_game(name).info.errors})


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    @blp.response(200, VIEW)
    @documented(
        blp,
        "send_actions",
        *ACT_ERRORS,
        *rule_errors(),
        body={"oneOf": [{"$ref": "#/components/schemas/Action"}, {"$ref": "#/components/schemas/ActionBatch"}]},
        security=BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """One action (`{"type": ..., fields}`) or a batch (`{"actions": [...]}`, all or nothing) of the seat
        whose token is sent; the types and fields of each game are in the catalog and each seat view lists its
        `legal_actions` as they can be sent. Answers the seat's new view (bots act before it)."""
        return seat_acts(game_id, read_actions)
