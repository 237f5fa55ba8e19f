"""The schema of an analysis under way (``202``): how far it is, its place on the job queue, the time left."""

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
