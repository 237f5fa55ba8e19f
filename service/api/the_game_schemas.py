"""The Game's shortcut routes' bodies (``api/the_game.py``): a play, a turn, a signal."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range

import thegame_core as tg

from .schemas import _int


def _pile(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=OneOf(tg.PILES), metadata={"description": "asc1, asc2 (up), desc1, desc2 (down)"}, **kwargs
    )


class PlaySchema(ma.Schema):
    card = _int(required=True, validate=Range(2, 99))
    pile = _pile(required=True)


class TurnSchema(ma.Schema):
    plays = fields.List(fields.Nested(PlaySchema), load_default=list, validate=Length(max=tg.MAX_HAND_SIZE))
    end_turn = fields.Boolean(load_default=True)

    @ma.validates_schema
    def _not_empty(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data["plays"] and not data["end_turn"]:
            raise ma.ValidationError("a turn needs plays or end_turn", "_schema")


class EmptySchema(ma.Schema):
    """No fields: an empty body or `{}`."""


class SignalSchema(ma.Schema):
    pile = _pile(required=True)
    kind = fields.String(required=True, validate=OneOf(tg.SIGNAL_KINDS))
    clear = fields.Boolean(load_default=False)
