"""Marshmallow schemas: request bodies (validated) and responses (documented in the OpenAPI spec)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range

import thegame_core as tg
from thegame_core.bots import bot_names

SEED_RANGE = Range(0, 2**63 - 1)
SEAT_RANGE = Range(0, tg.MAX_PLAYERS - 1)


def _int(**kwargs: Any) -> fields.Integer:
    """Integers only: `"3"` and `3.0` are type errors, not silently converted."""
    return fields.Integer(strict=True, **kwargs)


def _pile(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=OneOf(tg.PILES), metadata={"description": "asc1, asc2 (up), desc1, desc2 (down)"}, **kwargs
    )


# Requests -----------------------------------------------------------------------------------
class OptionsSchema(ma.Schema):
    preset = fields.String(validate=OneOf(list(tg.PRESETS)))
    hand_size = _int(validate=Range(1, tg.MAX_HAND_SIZE))
    min_per_turn = _int(validate=Range(1, tg.MAX_HAND_SIZE))
    min_after_empty = _int(validate=Range(1, tg.MAX_HAND_SIZE))
    stuck_policy = fields.String(validate=OneOf(tg.STUCK_POLICIES))


class CreateGameSchema(ma.Schema):
    game = fields.String(load_default="the-game", validate=OneOf(tg.game_names()))
    players = _int(required=True, validate=Range(tg.MIN_PLAYERS, tg.MAX_PLAYERS))
    options = fields.Nested(OptionsSchema, load_default=dict)
    seed = _int(validate=SEED_RANGE, metadata={"description": "shuffles the deck; not with deck"})
    deck = fields.List(
        _int(), validate=Length(equal=tg.CARDS_IN_DECK), metadata={"description": "the 98 cards, drawn first first"}
    )

    @ma.validates_schema
    def _seed_or_deck(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "seed" in data and "deck" in data:
            raise ma.ValidationError("give seed or deck, not both", "_schema")


class SeatRequestSchema(ma.Schema):
    name = fields.String(required=True, validate=Length(1, 40))
    seat = _int(validate=SEAT_RANGE, metadata={"description": "default: the lowest free seat"})
    bot = fields.String(validate=OneOf(bot_names()), metadata={"description": "host only: seat a server-side bot"})


class StartRequestSchema(ma.Schema):
    first_seat = _int(validate=SEAT_RANGE, metadata={"description": "default: drawn from the game's seed"})


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


# Responses (documentation) ----------------------------------------------------------------
class ResponseSchema(ma.Schema):
    """An answer: every field is in every answer (required in the spec, so generated clients need not
    test for it) except those named in `OPTIONAL`."""

    OPTIONAL: tuple[str, ...] = ()

    def on_bind_field(self, field_name: str, field_obj: fields.Field[Any]) -> None:
        field_obj.required = field_name not in self.OPTIONAL


class SeatViewSchema(ResponseSchema):
    seat = fields.Integer()
    name = fields.String(allow_none=True, metadata={"description": "null while the seat is free"})
    hand_size = fields.Integer()
    bot = fields.Boolean()
    bot_name = fields.String(allow_none=True)


class PileSchema(ResponseSchema):
    id = _pile()
    direction = fields.String(validate=OneOf(["up", "down"]))
    top = fields.Integer(metadata={"description": "the visible card; the base (1 or 100) before any"})


class SignalViewSchema(ResponseSchema):
    seat = fields.Integer()
    pile = _pile()
    kind = fields.String(validate=OneOf(tg.SIGNAL_KINDS))


class OutcomeSchema(ResponseSchema):
    status = fields.String(validate=OneOf(["won", "lost"]))
    reason = fields.String()
    seat = fields.Integer(allow_none=True)


class ViewSchema(ResponseSchema):
    OPTIONAL = ("seat", "hand", "legal_plays", "can_end_turn")  # seat views only

    game_id = fields.String()
    game = fields.String()
    status = fields.String(validate=OneOf(["lobby", "playing", "won", "lost"]))
    outcome = fields.Nested(OutcomeSchema, allow_none=True)
    version = fields.Integer(metadata={"description": "+1 per change of the game, lobby included; the ETag"})
    options = fields.Dict()
    players = fields.Integer()
    seats = fields.List(fields.Nested(SeatViewSchema))
    piles = fields.List(fields.Nested(PileSchema))
    draw_pile = fields.Integer(metadata={"description": "cards left to draw (a count, never their order)"})
    current_seat = fields.Integer(allow_none=True)
    placed_this_turn = fields.Integer()
    required_this_turn = fields.Integer()
    signals = fields.List(fields.Nested(SignalViewSchema))
    score = fields.Integer(metadata={"description": "cards not placed"})
    seat = fields.Integer(metadata={"description": "seat views only"})
    hand = fields.List(fields.Integer(), metadata={"description": "seat views only, ascending"})
    legal_plays = fields.List(fields.Nested(PlaySchema), metadata={"description": "seat views only"})
    can_end_turn = fields.Boolean(metadata={"description": "seat views only"})


class GameCreatedSchema(ViewSchema):
    host_token = fields.String(metadata={"description": "shown once: starts the game and seats bots"})


class SeatTakenSchema(ResponseSchema):
    game_id = fields.String()
    seat = fields.Integer()
    name = fields.String()
    bot = fields.Boolean()
    bot_name = fields.String(allow_none=True)
    token = fields.String(allow_none=True, metadata={"description": "shown once; null for a bot seat"})
    version = fields.Integer()


class LogEntrySchema(ResponseSchema):
    OPTIONAL = ("card", "pile", "kind", "clear")  # by type: plays have card and pile, signals pile, kind, clear

    type = fields.String(validate=OneOf(["play", "end_turn", "signal"]))
    seat = fields.Integer()
    card = fields.Integer()
    pile = _pile()
    kind = fields.String()
    clear = fields.Boolean()
    version = fields.Integer(metadata={"description": "the game's version after this entry"})


class ReplaySchema(ResponseSchema):
    game = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    deck = fields.List(fields.Integer())
    first_seat = fields.Integer()
    actions = fields.List(fields.Dict())


class LogSchema(ResponseSchema):
    entries = fields.List(fields.Nested(LogEntrySchema))
    replay = fields.Nested(ReplaySchema, allow_none=True, metadata={"description": "null until the game is over"})


class HealthSchema(ResponseSchema):
    status = fields.String()
    store = fields.String(metadata={"description": "redis or embedded"})


class ErrorSchema(ResponseSchema):
    OPTIONAL = ("errors",)

    code = fields.Integer(metadata={"description": "the HTTP status"})
    status = fields.String(metadata={"description": "the HTTP reason phrase"})
    message = fields.String(metadata={"description": "for humans"})
    error = fields.String(metadata={"description": "stable machine code"})
    errors = fields.Dict(metadata={"description": "field details (validation errors only)"})
