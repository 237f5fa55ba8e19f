"""Idempotent retries: the answer to a change, remembered in the same atomic write as the change.

A retry with the same Idempotency-Key by the same caller on the same game gets the first answer again,
re-rendered from the game's history; the same key with another request is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from . import auth
from .errors import ApiError
from .incoming import Incoming


@dataclass(frozen=True)
class Answer:
    """A successful response, in a form small enough to remember for idempotent retries.

    ``kind`` is ``"view"`` (the view for ``seat``, public if ``None``, at ``version``), ``"seat"``
    (a taken seat and its token) or ``"closed"`` (a deleted lobby).
    """

    status: int
    kind: str
    seat: int | None
    version: int
    token: str | None = None

    def remembered(self, incoming: Incoming) -> str:
        sealed = None
        if self.token is not None and incoming.idempotency_key is not None:
            sealed = auth.seal(self.token, incoming.idempotency_key, incoming.game_id)
        record = [incoming.fingerprint, self.status, self.kind, self.seat, self.version, sealed]
        return json.dumps(record, separators=(",", ":"))  # kept for the game's lifetime: compact

    @classmethod
    def recalled(cls, text: str, incoming: Incoming) -> Answer:
        fingerprint, status, kind, seat, version, sealed = json.loads(text)
        if fingerprint != incoming.fingerprint:
            raise ApiError("idempotency_key_reused", "this Idempotency-Key was used with another request")
        token = sealed and auth.unseal(sealed, incoming.idempotency_key or "", incoming.game_id)
        return cls(status, kind, seat, version, token)


def idem_field(digest: str | None, key: str) -> str:
    """Keys are scoped per game (the hash) and caller (its token's hash, or none for anonymous callers);
    the field is a fixed-size digest of both, so a long key costs no more memory than a short one."""
    return "i:" + auth.short_digest(f"{digest or 'anyone'}\0{key}".encode())
