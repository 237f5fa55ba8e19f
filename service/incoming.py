"""What a request brings, read once before the transaction: token, If-Match, Idempotency-Key, body.

The body is parsed lazily (``Incoming.body``) so that its errors answer at their place in the
contract's check order (after the game, token, status and If-Match checks), not first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from flask import request
from werkzeug.datastructures import ETags

from .auth import bearer_digest, short_digest
from .errors import ApiError
from .timing import now

MAX_IDEMPOTENCY_KEY = 200


class _Refused(ValueError):
    """Valid for Python's ``json`` but not strict JSON (RFC 8259 with unique keys)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise _Refused(f"the request body repeats the key {key!r}")
        document[key] = value
    return document


def _no_constant(name: str) -> Any:
    raise _Refused(f"the request body holds {name}, which is not JSON")


def parse_json(raw: bytes) -> Any:
    """The JSON document in ``raw`` (an empty body is ``{}``): ``415 unsupported_media_type`` unless the request
    says ``Content-Type: application/json``, ``400 malformed_json`` unless it is strict JSON (no repeated key,
    no ``NaN`` or ``Infinity``)."""
    if not raw.strip():
        return {}
    if request.mimetype != "application/json":
        raise ApiError("unsupported_media_type", "send the request body with Content-Type: application/json")
    try:
        return json.loads(raw, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _Refused as refused:
        raise ApiError("malformed_json", str(refused)) from None
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, huge numbers, absurd nesting
        raise ApiError("malformed_json", "the request body is not valid JSON") from None


def validate(schema: ma.Schema, document: Any) -> dict[str, Any]:
    """``document`` loaded by ``schema``; ``422 validation_error`` with field details otherwise."""
    try:
        return schema.load(document)  # type: ignore[no-any-return]
    except ma.ValidationError as error:
        errors = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        raise ApiError("validation_error", "the request body is invalid", errors) from None


@dataclass(frozen=True)
class Incoming:
    game_id: str
    digest: str | None
    if_match: ETags | None
    idempotency_key: str | None
    parsed: Any
    malformed: ApiError | None  # raised when the body is needed: body errors answer after the state checks
    fingerprint: str | None  # only with an Idempotency-Key: it identifies the request for retries
    now: float  # when it arrived (the app's CLOCK): the clock applies what fell due by then, then the request

    @classmethod
    def read(cls, game_id: str) -> Incoming:
        raw = request.get_data(cache=True)
        try:
            parsed, malformed = parse_json(raw), None
        except ApiError as error:
            parsed, malformed = None, error
        key = request.headers.get("Idempotency-Key")
        fingerprint = None
        if key is not None:  # the same JSON with other spacing or key order is the same body
            fingerprint = _fingerprint(raw if malformed else json.dumps(parsed, sort_keys=True).encode())
        if_match = request.if_match if "If-Match" in request.headers else None
        return cls(game_id, bearer_digest(), if_match, key, parsed, malformed, fingerprint, now())

    def check_idempotency_key(self) -> None:
        key = self.idempotency_key
        if key is not None and not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
            raise ApiError("validation_error", f"Idempotency-Key must have 1 to {MAX_IDEMPOTENCY_KEY} characters")

    def document(self) -> Any:
        if self.malformed is not None:
            raise self.malformed
        return self.parsed

    def body(self, schema: ma.Schema) -> dict[str, Any]:
        return validate(schema, self.document())

    def check_if_match(self, version: int) -> None:
        if self.if_match is not None and not self.if_match.contains_weak(str(version)):
            raise ApiError("stale_version", f"the game is at version {version}; reload and retry")


def _fingerprint(canonical_body: bytes) -> str:
    """What identifies a request for idempotency: its method, path and body."""
    return short_digest(f"{request.method} {request.path}\n".encode() + canonical_body)
