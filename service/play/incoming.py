"""What a request brings, read once before the transaction (``service/http/reading.py`` reads it): token digest
(and the player, for a player key), If-Match, Idempotency-Key, body, when it arrived and from which address.

The body is parsed lazily (``Incoming.body``) so that its errors answer at their place in the contract's check
order (after the game, token, status and If-Match checks), not first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import marshmallow as ma

from ..errors import ApiError
from ..records.game_record import GameRecord

MAX_IDEMPOTENCY_KEY = 200


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
    if_match: frozenset[str] | None  # the versions If-Match names ("*": any)
    idempotency_key: str | None
    parsed: Any
    malformed: ApiError | None  # raised when the body is needed: body errors answer after the state checks
    fingerprint: str | None  # only with an Idempotency-Key: it identifies the request for retries
    now: float  # when it arrived (the app's CLOCK): the clock applies what fell due by then, then the request
    address: str  # the client's (``limits.client_address``): scopes the Idempotency-Keys of callers without a token
    player: str | None = None  # the player whose key the request sent, once checked (``digest`` is the key's hash)

    @property
    def budget_holder(self) -> str | None:
        """What the store charges a change to (``store.Charge``): the player its seat is bound to, for a player
        key, else the token's digest."""
        return self.player or self.digest

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

    def check_if_match(self, record: GameRecord) -> None:
        """``If-Match`` names the game as it stands: its ETag (version and nonce, so a version lost to a Redis crash
        or failover and written again is another), or its version alone (clients that build the tag from a view's
        version: they cannot tell a lost version from the one written again)."""
        if self.if_match is None or "*" in self.if_match:
            return
        if record.tag() not in self.if_match and str(record.version) not in self.if_match:
            raise ApiError("stale_version", f"the game is at version {record.version}; reload and retry")
