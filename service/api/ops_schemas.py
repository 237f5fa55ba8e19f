"""Schemas of the operators' routes: liveness and health (``api/health.py``)."""

from __future__ import annotations

from marshmallow import fields

from .schemas import ResponseSchema


class LiveSchema(ResponseSchema):
    status = fields.String(metadata={"description": "ok: the process serves requests (the store is not asked)"})


class HealthSchema(ResponseSchema):
    status = fields.String()
    store = fields.String(metadata={"description": "redis or embedded"})
