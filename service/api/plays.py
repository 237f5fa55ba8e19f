"""Plays: the current seat places cards and ends its turn, one action or a whole turn at once."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg

from .. import transitions
from .common import BEARER, documented, incoming, reply, store
from .schemas import EmptySchema, PlaySchema, TurnSchema, ViewSchema

blp = Blueprint("plays", __name__, url_prefix="/v1/games", description="Place cards and end turns")

# Request schemas are built once: loading with a shared instance is safe, and building one costs.
PLAY = PlaySchema()
EMPTY = EmptySchema()
TURN = TurnSchema()

ACT_ERRORS = (
    "unknown_game",
    "invalid_token",
    "forbidden",
    "game_not_started",
    "game_over",
    "stale_version",
    "malformed_json",
    "validation_error",
    "not_your_turn",
    "idempotency_key_reused",
)


def seat_action(game_id: str, schema: ma.Schema, build: transitions.ActionBuilder, *, on_turn: bool = True) -> Response:
    """Apply the caller seat's actions built from the body, all or nothing; answer its new view."""
    parts = incoming(game_id)
    step = transitions.act(parts, schema, build, on_turn=on_turn)
    return reply(transitions.change(store(), parts, "seat", step))


def _plays(body: dict[str, Any], seat: int) -> list[tg.Action]:
    return [tg.Play(seat, play["card"], play["pile"]) for play in body["plays"]]


@blp.route("/<game_id>/plays")
class Plays(MethodView):
    @blp.response(200, ViewSchema)
    @documented(
        blp,
        "play_card",
        *ACT_ERRORS,
        "card_not_in_hand",
        "illegal_play",
        body=PlaySchema,
        security=BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """Place one card on a pile; answers the seat's new view."""
        return seat_action(game_id, PLAY, lambda body, seat: [tg.Play(seat, body["card"], body["pile"])])


@blp.route("/<game_id>/turn/end")
class TurnEnd(MethodView):
    @blp.response(200, ViewSchema)
    @documented(blp, "end_turn", *ACT_ERRORS, "minimum_not_reached", body=EmptySchema, security=BEARER, changes=True)
    def post(self, game_id: str) -> Response:
        """End the turn: draw as many cards as were placed, pass on (bots then play their turns)."""
        return seat_action(game_id, EMPTY, lambda body, seat: [tg.EndTurn(seat)])


@blp.route("/<game_id>/turns")
class Turns(MethodView):
    @blp.response(200, ViewSchema)
    @documented(
        blp,
        "play_turn",
        *ACT_ERRORS,
        "card_not_in_hand",
        "illegal_play",
        "minimum_not_reached",
        body=TurnSchema,
        security=BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """A whole turn, all or nothing: every play in order, then (by default) the end of the turn."""
        return seat_action(
            game_id,
            TURN,
            lambda body, seat: _plays(body, seat) + ([tg.EndTurn(seat)] if body["end_turn"] else []),
        )
