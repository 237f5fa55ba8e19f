"""The seats' request and answer (``api/seats.py``): a person or a bot takes a seat."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Length, Range

from .schemas import BOT_DOC, SEAT, ResponseSchema, _int

MAX_REACTION_MS = 60_000


class SeatRequestSchema(ma.Schema):
    name = fields.String(required=True, validate=Length(1, 40))
    seat = _int(validate=SEAT, metadata={"description": "default: the lowest free seat"})
    bot = fields.String(
        validate=Length(1, 40),
        metadata={
            **BOT_DOC,
            "description": "host only: seat a server-side bot (the game's own: GET /v1/games/catalog)",
        },
    )
    reaction_ms = _int(
        validate=Range(0, MAX_REACTION_MS),
        metadata={
            "description": "a bot's pace: on average it acts this long after what it reacts to changed "
            "(default: the game's)"
        },
    )
    reaction_spread_ms = _int(
        validate=Range(0, MAX_REACTION_MS),
        metadata={
            "description": "a bot's spread: the standard deviation of its waits, drawn log-normal around "
            "reaction_ms from the game's seed (default: the game's; 0: exactly reaction_ms)"
        },
    )

    @ma.validates_schema
    def _pace_of_a_bot(self, data: dict[str, Any], **kwargs: Any) -> None:
        for name in ("reaction_ms", "reaction_spread_ms"):
            if name in data and "bot" not in data:
                raise ma.ValidationError("only a bot seat has a pace", name)


class SeatTakenSchema(ResponseSchema):
    game_id = fields.String()
    seat = fields.Integer()
    name = fields.String()
    bot = fields.Boolean()
    bot_name = fields.String(allow_none=True)
    reaction_ms = fields.Integer(allow_none=True, metadata={"description": "a bot's pace; null for a person"})
    reaction_spread_ms = fields.Integer(allow_none=True, metadata={"description": "a bot's spread; null for a person"})
    token = fields.String(allow_none=True, metadata={"description": "shown once; null for a bot seat"})
    version = fields.Integer()
