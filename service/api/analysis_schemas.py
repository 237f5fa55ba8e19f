"""The analysis's answers (``api/analysis.py``): a finished game's, move by move, and one under way (``202``)."""

from __future__ import annotations

from marshmallow import fields
from marshmallow.validate import OneOf

from .schemas import ResponseSchema


class AnalysisPendingSchema(ResponseSchema):
    """An analysis not yet worked out: poll the `Location` after `Retry-After` seconds."""

    status = fields.String(validate=OneOf(["pending"]))
    done = fields.Integer(allow_none=True, metadata={"description": "decisions analysed; null: not queued yet"})
    total = fields.Integer(allow_none=True, metadata={"description": "decisions in all; null: not queued yet"})
    queue_position = fields.Integer(
        allow_none=True,
        metadata={"description": "analyses ahead of this one on the job queue; 0: being worked on; null: not queued"},
    )
    eta_s = fields.Integer(
        allow_none=True,
        metadata={
            "description": "seconds it may still take, from its decisions, those ahead of it and the workers' "
            "measured pace; null: not known yet"
        },
    )


class AnalysisValueSchema(ResponseSchema):
    win = fields.Float(metadata={"description": "share of the rollouts won: by the team (The Game), by this seat"})
    cards_left = fields.Float(allow_none=True, metadata={"description": "mean cards left at the end; null: no score"})


class AnalysisDecisionSchema(ResponseSchema):
    seat = fields.Integer()
    start = fields.Integer(metadata={"description": "the version before it: its log entries have start < version"})
    end = fields.Integer(metadata={"description": "the version after it: its log entries have version <= end"})
    played = fields.List(fields.Dict(), metadata={"description": "the actions played, as in the log"})
    best = fields.List(fields.Dict(), metadata={"description": "what the bot would have played; []: wait"})
    same = fields.Boolean(metadata={"description": "both leave the table alike: one value, cost 0"})
    played_value = fields.Nested(AnalysisValueSchema)
    best_value = fields.Nested(AnalysisValueSchema)
    cost = fields.Float(metadata={"description": "how much worse than the bot's choice, in `measure` (may be < 0)"})


class AnalysisSeatSchema(ResponseSchema):
    seat = fields.Integer()
    decisions = fields.Integer()
    same = fields.Integer(metadata={"description": "decisions the bot would have made alike"})
    cost = fields.Float(metadata={"description": "the sum of the seat's costs"})


class AnalysisSchema(ResponseSchema):
    """A finished game's analysis, move by move (docs/api.md, "Analysis")."""

    game = fields.String()
    players = fields.Integer()
    bot = fields.String(metadata={"description": "the bot whose choices are compared: best"})
    playout = fields.String(metadata={"description": "the bot that plays every seat of each playout: greedy"})
    horizon = fields.Integer(
        allow_none=True,
        metadata={
            "description": "actions a playout plays after the choice before it counts the game's estimate of the "
            "seat's chance (Bataille corse: 100); null: playouts run to the end (a game with no estimate)"
        },
    )
    rollouts = fields.Integer(metadata={"description": "playouts per choice (TG_ANALYSIS_ROLLOUTS)"})
    seed = fields.Integer(metadata={"description": "the seed the playouts derive from (from the game's id)"})
    measure = fields.String(
        validate=OneOf(["cards_left", "win"]),
        metadata={"description": "what cost counts: cards left (The Game), else the chance to win (0 to 1)"},
    )
    decisions = fields.List(fields.Nested(AnalysisDecisionSchema), metadata={"description": "in the order played"})
    seats = fields.List(fields.Nested(AnalysisSeatSchema))
