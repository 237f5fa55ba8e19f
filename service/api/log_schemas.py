"""A game's log and replay record (``api/log.py``)."""

from __future__ import annotations

from marshmallow import fields

from .schemas import _CARD_DOC, ResponseSchema, _Card


class ReplaySchema(ResponseSchema):
    game = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    deck = fields.List(_Card(metadata=_CARD_DOC))
    first_seat = fields.Integer()
    actions = fields.List(fields.Dict())


class LogSchema(ResponseSchema):
    entries = fields.List(
        fields.Dict(),
        metadata={"description": "each: type, seat, version (after it) and the action's fields (dict form)"},
    )
    replay = fields.Nested(ReplaySchema, allow_none=True, metadata={"description": "null until the game is over"})
