"""The catalog's answer (``GET /v1/games/catalog``): each game's players, options, presets and actions."""

from __future__ import annotations

from marshmallow import fields
from marshmallow.validate import OneOf

from .schemas import ResponseSchema


class PlayerRangeSchema(ResponseSchema):
    min = fields.Integer()
    max = fields.Integer()


class CatalogOptionSchema(ResponseSchema):
    OPTIONAL = ("choices", "min", "max")

    name = fields.String()
    type = fields.String(validate=OneOf(["int", "bool", "str"]))
    default = fields.Raw(allow_none=True, metadata={"description": "null: depends on the players (see description)"})
    choices = fields.List(fields.Raw())
    min = fields.Integer()
    max = fields.Integer()
    description = fields.String()


class PresetSchema(ResponseSchema):
    name = fields.String()
    options = fields.Dict()


class CatalogActionSchema(ResponseSchema):
    type = fields.String()
    action_fields = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        data_key="fields",
        metadata={"description": "name -> int, bool or str"},
    )
    optional = fields.List(fields.String(), metadata={"description": "fields that may be left out"})


class CatalogGameSchema(ResponseSchema):
    name = fields.String()
    title = fields.String()
    players = fields.Nested(PlayerRangeSchema)
    cooperative = fields.Boolean()
    cards = fields.String(metadata={"description": "what a card is and what a deck holds"})
    options = fields.List(fields.Nested(CatalogOptionSchema))
    presets = fields.List(fields.Nested(PresetSchema))
    actions = fields.List(fields.Nested(CatalogActionSchema))
    bots = fields.List(fields.String())
    rated = fields.Boolean(metadata={"description": 'whether a game of it may be created with `"rated": true`'})
    errors = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "rule codes (422)"})
    outcome_reasons = fields.Dict(keys=fields.String(), values=fields.String())
    facts = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        metadata={
            "description": "numbers of the game's rules a table shows, from the rules themselves (empty for most "
            "games). Bataille corse's `honours`: an honour's rank (A, K, Q, J) or a joker (RJ, BJ) -> the tries it "
            "gives its payer"
        },
    )


class CatalogSchema(ResponseSchema):
    games = fields.List(fields.Nested(CatalogGameSchema))
