"""How a route is described in the OpenAPI document: its errors, security, body and headers (``documented``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

import marshmallow as ma
from flask_smorest import Blueprint

from ..errors import STATUS_OF
from .schemas import ErrorSchema

F = TypeVar("F", bound=Callable[..., Any])
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"bearer": []}]
#: The answer of every route that answers a view: one of the games' views (see ``game_schemas``).
VIEW = {"$ref": "#/components/schemas/View"}
CHANGE_HEADERS = [
    {
        "in": "header",
        "name": "If-Match",
        "schema": {"type": "string"},
        "description": 'Only if the game is at this version: "<version>"',
    },
    {
        "in": "header",
        "name": "Idempotency-Key",
        "schema": {"type": "string", "minLength": 1, "maxLength": 200},
        "description": "a retry with the same key returns the first response. Without a token the key must be one "
        "no other client sends: a random UUID, or at least 22 random characters of A-Z a-z 0-9 - _ (two of lower "
        "case, upper case and digits, 8 distinct at least); else 422 validation_error naming the header",
    },
]

NOT_MODIFIED = "Not Modified: the version in If-None-Match is current"
#: The conditional read of every GET that answers a version: ``304`` when the client has it already.
READ_HEADERS = [
    {
        "in": "header",
        "name": "If-None-Match",
        "schema": {"type": "string"},
        "description": 'the ETag of a copy the client holds ("<version>"): 304 without a body if it is current',
    }
]


def documented(
    blp: Blueprint,
    operation_id: str,
    *errors: str,
    security: list[dict[str, Any]] | None = None,
    body: type[ma.Schema] | dict[str, Any] | None = None,
    changes: bool = False,
    reads: bool = False,
    parameters: list[dict[str, Any]] | None = None,
    store: bool = True,
) -> Callable[[F], F]:
    """Document an operation: its id, security, request body (validated in the view, in the contract's
    order, so it is only described here), the optional change headers, or for a read (``read_reply``)
    ``If-None-Match`` and its ``304``, other ``parameters`` (a query's), and every error it can answer (``store``:
    the store's own two unless the route never asks it)."""
    by_status: dict[int, list[str]] = defaultdict(list)
    if "malformed_json" in errors:  # a route that reads a JSON body refuses one not sent as JSON
        errors = (*errors, "unsupported_media_type")
    always: tuple[str, ...] = ("store_unavailable", "store_may_evict") if store else ()
    if changes:  # any change: a body, a bounded game, an Idempotency-Key that can be malformed (validation_error)
        always += ("body_too_large", "store_busy", "game_too_large", "rate_limited", "validation_error", "catching_up")
    for code in dict.fromkeys((*errors, *always)):  # each once, in order
        by_status[STATUS_OF.get(code, 422)].append(code)
    doc: dict[str, Any] = {"operationId": operation_id}
    if security is not None:
        doc["security"] = security
    if body is not None:
        # else an empty body is valid
        required = isinstance(body, dict) or any(field.required for field in body().fields.values())
        doc["requestBody"] = {"required": required, "content": {"application/json": {"schema": body}}}
    if changes or reads or parameters:
        doc["parameters"] = (CHANGE_HEADERS if changes else READ_HEADERS if reads else []) + (parameters or [])

    def decorate(view: F) -> F:
        # Only the description is attached: flask-smorest reads it when the route is registered, and each of its
        # decorators would also wrap the view in a function run at every request (4% of a play's instructions).
        described: Any = view
        if reads:
            described = blp.alt_response(304, description=NOT_MODIFIED)(described)
        for status, codes in sorted(by_status.items()):
            described = blp.alt_response(status, schema=ErrorSchema, description="error: " + ", ".join(codes))(
                described
            )
        view._apidoc = blp.doc(**doc)(described)._apidoc  # type: ignore[attr-defined]
        return view

    return decorate
