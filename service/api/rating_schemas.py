"""Schemas of the ratings' answers (leaderboards) and of the daily rank's percentile."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from ..ratings.board import TOP, WINDOW_DAYS
from ..ratings.scale import NEW, PROVISIONAL_SPREAD, SCALE
from .daily_schemas import DailyRankSchema


class LeaderboardEntrySchema(ma.Schema):
    rank = fields.Integer(metadata={"description": "1 is the best; equal ratings share a rank"})
    player = fields.String(metadata={"description": "the player's id"})
    name = fields.String(allow_none=True, metadata={"description": "the player's name (null: a player gone)"})
    rating = fields.Integer(metadata={"description": f"the shown rating ({NEW} for a new player)"})
    games = fields.Integer(metadata={"description": "rated games of this game"})


class LeaderboardSchema(ma.Schema):
    game = fields.String()
    count = fields.Integer(metadata={"description": "established players on the board"})
    window_days = fields.Integer(metadata={"description": f"a rated game in the last {WINDOW_DAYS} days keeps one on"})
    scale = fields.Dict(
        metadata={
            "description": f"how the number is made: new {NEW}, {SCALE} points per unit of openskill's ordinal, "
            f"provisional while {SCALE} sigma >= {PROVISIONAL_SPREAD}"
        }
    )
    players = fields.List(fields.Nested(LeaderboardEntrySchema), metadata={"description": f"the best {TOP}"})


class StandingSchema(ma.Schema):
    game = fields.String()
    player = fields.String(metadata={"description": "the key's player"})
    count = fields.Integer(metadata={"description": "established players on the board"})
    rank = fields.Integer(
        allow_none=True,
        metadata={"description": f"null: not on the board (provisional, or no rated game in {WINDOW_DAYS} days)"},
    )
    rating = fields.Integer(metadata={"description": f"the shown rating now ({NEW} for a new player)"})
    provisional = fields.Boolean(metadata={"description": "still uncertain: shown with a question mark"})
    games = fields.Integer(metadata={"description": "rated games of this game"})


class DailyStandingSchema(DailyRankSchema):
    percentile = fields.Integer(
        metadata={"description": "the share of the deal's tables (yours among them) whose result is worse, in %"}
    )
