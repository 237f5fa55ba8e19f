"""Reading a request: its bearer token, its JSON body (strict), its headers, into a plain ``Incoming``."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from ..errors import ApiError
from ..play.incoming import Incoming
from ..play.tokens import MALFORMED, MAX_TOKEN_CHARS, short_digest, token_hash


def bearer_token() -> str | None:
    """The request's bearer token; ``None`` without one; ``MALFORMED`` for another header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        return MALFORMED
    return token


def bearer_digest() -> str | None:
    """The hash of the request's bearer token; ``None`` without one; ``MALFORMED`` for another header."""
    token = bearer_token()
    return token if token is None or token == MALFORMED else token_hash(token)


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


def _fingerprint(canonical_body: bytes) -> str:
    """What identifies a request for idempotency: its method, path and body."""
    return short_digest(f"{request.method} {request.path}\n".encode() + canonical_body)


def read_incoming(game_id: str, now: float, address: str) -> Incoming:
    """What the current request brings for game ``game_id``, arrived at ``now`` from ``address``."""
    raw = request.get_data(cache=True)
    try:
        parsed, malformed = parse_json(raw), None
    except ApiError as error:
        parsed, malformed = None, error
    key = request.headers.get("Idempotency-Key")
    fingerprint = None
    if key is not None:  # the same JSON with other spacing or key order is the same body
        fingerprint = _fingerprint(raw if malformed else json.dumps(parsed, sort_keys=True).encode())
    return Incoming(game_id, bearer_digest(), _if_match(), key, parsed, malformed, fingerprint, now, address)


def _if_match() -> frozenset[str] | None:
    """The versions ``If-Match`` names, strong or weak (``"*"``: any); ``None`` without the header."""
    if "If-Match" not in request.headers:
        return None
    tags = request.if_match
    return frozenset({"*"}) if tags.star_tag else frozenset(tags.as_set(include_weak=True))
