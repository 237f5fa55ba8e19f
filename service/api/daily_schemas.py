"""The daily deals' queries and answers (``api/daily.py``): the board, a result, a rank."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields
from marshmallow.validate import Range

from .schemas import ResponseSchema

#: What a daily game fixes itself: its deal, options and readers.
DAILY_FIXED = {"seed", "deck", "options", "public", "spectators", "rated"}
#: The largest page of a daily deal's results, and the default.
DAILY_PAGE = 100
DAILY_MAX_OFFSET = 1_000_000


class DailyYardstickSchema(ResponseSchema):
    cards_left = fields.Integer(metadata={"description": "The Game: the team's; a competitive game: the player's"})
    turns = fields.Integer()
    place = fields.Integer(allow_none=True, metadata={"description": "1: won; null in The Game"})


class DailyResultSchema(DailyYardstickSchema):
    rank = fields.Integer(metadata={"description": "1 + the results better than this one (equal ones share it)"})
    name = fields.String()
    team = fields.List(fields.String(), metadata={"description": "the bots of the other seats"})
    game_id = fields.String(allow_none=True, metadata={"description": "null until the deal's day is over"})


class DailyBoardSchema(ResponseSchema):
    game = fields.String()
    players = fields.Integer()
    date = fields.String(metadata={"description": "YYYY-MM-DD, UTC"})
    over = fields.Boolean(metadata={"description": "the day has ended: seed and game ids are shown"})
    seed = fields.Integer(allow_none=True, metadata={"description": "the deal's seed, null until the day is over"})
    seed_sha256 = fields.String(metadata={"description": "SHA-256 (hex) of the seed's decimal digits, shown at once"})
    count = fields.Integer(metadata={"description": "results on this deal (players)"})
    bots = fields.Nested(
        DailyYardstickSchema, allow_none=True, metadata={"description": "best at every seat; null while computed"}
    )
    results = fields.List(fields.Nested(DailyResultSchema), metadata={"description": "best first"})
    next = fields.Integer(allow_none=True, metadata={"description": "the next page's offset; null: no more"})


class DailyRankSchema(DailyResultSchema):
    game = fields.String()
    players = fields.Integer()
    date = fields.String()
    count = fields.Integer()


class DailyQuerySchema(ma.Schema):
    offset = fields.Integer(load_default=0, validate=Range(0, DAILY_MAX_OFFSET))
    limit = fields.Integer(load_default=DAILY_PAGE, validate=Range(1, DAILY_PAGE))
