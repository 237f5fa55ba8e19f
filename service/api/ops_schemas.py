"""Schemas of the operators' routes (liveness), apart from ``schemas.py``."""

from __future__ import annotations

from marshmallow import fields

from .schemas import ResponseSchema


class LiveSchema(ResponseSchema):
    status = fields.String(metadata={"description": "ok: the process serves requests (the store is not asked)"})
