"""Schemas of Play now (``/v1/pairing``): what a seeker asks for, and the seat it gets."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import OneOf, Range

import thegame_core as tg

from ..ratings import rated
from .schemas import GAME_DOC, PLAYERS, _int, _JsonBoolean

#: The longest a seeker may ask to wait before bots take the empty seats.
MAX_BOTS_AFTER_S = 600


class PairingRequestSchema(ma.Schema):
    game = fields.String(required=True, validate=OneOf(tg.game_names()), metadata={**GAME_DOC})
    players = _int(
        required=True,
        metadata={
            "description": "within the game's range (GET /v1/games/catalog)",
            "minimum": PLAYERS.min,
            "maximum": PLAYERS.max,
        },
    )
    rated = _JsonBoolean(
        load_default=False,
        metadata={"description": "a rated game (competitive games only): opponents of a rating close to yours"},
    )
    bots_after_s = _int(
        validate=Range(0, MAX_BOTS_AFTER_S),
        metadata={
            "description": "unrated only: after this many seconds, bots take the empty seats and the game starts"
        },
    )

    @ma.validates_schema
    def _fits_the_game(self, data: dict[str, Any], **kwargs: Any) -> None:
        game = data.get("game")
        if game is None or "players" not in data:
            return
        info = tg.get_game(game).info
        if not info.min_players <= data["players"] <= info.max_players:
            raise ma.ValidationError(f"{game} is played by {info.min_players} to {info.max_players}", "players")
        if data["rated"] and not rated(game):
            raise ma.ValidationError(f"{game} is never rated (only competitive games are)", "rated")
        if data["rated"] and "bots_after_s" in data:
            raise ma.ValidationError("a rated game has no bots", "bots_after_s")


class PairedSchema(ma.Schema):
    game_id = fields.String(metadata={"description": "the game: follow its event stream with your player key"})
    game = fields.String()
    players = fields.Integer()
    rated = fields.Boolean()
    seat = fields.Integer(metadata={"description": "your seat, from 0"})
    token = fields.String(
        allow_none=True,
        metadata={"description": "the seat token, in the answer that took the seat only (your player key works too)"},
    )
    status = fields.String(metadata={"description": "lobby while waiting for players, then playing"})
    free_seats = fields.List(fields.Integer(), metadata={"description": "seats still empty"})
    bots_at = fields.Integer(
        allow_none=True, metadata={"description": "when bots take the empty seats (epoch ms); null: never"}
    )
