"""Idempotent retries: the answer to a change, remembered in the same atomic write as the change.

A retry with the same Idempotency-Key by the same caller on the same game gets the first answer again,
re-rendered from the game's history; the same key with another request is refused.

The answers are kept per caller (its token's hash, or none for anonymous callers) in one hash field of
the game, oldest first: a caller's newest ``MAX_ANSWERS_PER_CALLER`` answers are remembered, and a new one
makes the oldest forgotten, so no caller can make a game grow without bound by sending fresh keys.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .. import json_text
from ..errors import ApiError
from . import tokens
from .incoming import Incoming

#: Remembered answers per caller per game; a new one beyond these drops the caller's oldest.
MAX_ANSWERS_PER_CALLER = 32
#: Without a token the Idempotency-Key is the caller's only identity, so it must carry about 128 random bits: a
#: UUID (32 hex digits, dashes allowed) or 22 characters of base64url with two of lower case, upper case and digits,
#: neither with few distinct characters (``aaaa...``, ``abab...``). A random key of either form passes all but
#: never (one in 10^8 or less); a phrase in lower case does not.
MIN_HEX_DIGITS = 32
MIN_BASE64URL = 22
MIN_DISTINCT = 8
_HEX_KEY = re.compile(r"[0-9A-Fa-f-]+")
_BASE64URL_KEY = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class Answer:
    """A successful response, in a form small enough to remember for idempotent retries.

    ``kind`` is ``"view"`` (the view for ``seat``, public if ``None``, at ``version``), ``"seat"``
    (a taken seat and its token) or ``"closed"`` (no body: a deleted lobby, a seat left). ``results``: an answer to
    actions says what each did, ``(type, the game's word or None)`` in order; remembered as they were, since the
    view's ``version`` is after the bots that answered before it.
    """

    status: int
    kind: str
    seat: int | None
    version: int
    token: str | None = None
    results: tuple[tuple[str, str | None], ...] | None = None

    def remembered(self, incoming: Incoming) -> list[Any]:
        sealed = None
        if self.token is not None and incoming.idempotency_key is not None:
            sealed = tokens.seal(self.token, incoming.idempotency_key, incoming.game_id)
        results = None if self.results is None else [list(result) for result in self.results]
        return [incoming.fingerprint, self.status, self.kind, self.seat, self.version, sealed, results]

    @classmethod
    def recalled(cls, remembered: list[Any], incoming: Incoming) -> Answer:
        fingerprint, status, kind, seat, version, sealed, *rest = remembered  # answers remembered before results: 6
        if fingerprint != incoming.fingerprint:
            raise ApiError("idempotency_key_reused", "this Idempotency-Key was used with another request")
        token = sealed and tokens.unseal(sealed, incoming.idempotency_key or "", incoming.game_id)
        results = rest[0] if rest else None
        return cls(status, kind, seat, version, token, None if results is None else tuple(map(tuple, results)))


@dataclass(frozen=True)
class Remembered:
    """One caller's remembered answers on one game: key digest -> answer, oldest first."""

    answers: dict[str, list[Any]]

    @classmethod
    def load(cls, text: str | None) -> Remembered:
        return cls({} if text is None else json.loads(text))

    def get(self, key: str) -> list[Any] | None:
        return self.answers.get(_key_digest(key))

    def adding(self, key: str, answer: list[Any]) -> str:
        """The stored form with ``answer`` for ``key`` added as the newest, the oldest beyond the bound dropped."""
        digest = _key_digest(key)
        answers = {old: remembered for old, remembered in self.answers.items() if old != digest}
        answers[digest] = answer
        kept = list(answers.items())[-MAX_ANSWERS_PER_CALLER:]
        return json_text.dumps(dict(kept))  # stored in the game: compact


def _key_digest(key: str) -> str:
    """A fixed-size digest, so a long key costs no more memory than a short one."""
    return tokens.short_digest(key.encode())


def idem_field(digest: str | None, address: str) -> str:
    """The field holding a caller's answers: keys are scoped per game (the hash) and caller, a caller without a
    token by its address, so that a key sent again from elsewhere never recalls another client's seat token."""
    return "k:" + tokens.short_digest((digest or f"anyone:{address}").encode())


def check_anonymous_key(key: str) -> None:
    """Without a token the key is the caller's only identity (a retried seat hands back the seat token), so it
    must be one no other client sends by accident: ``422 validation_error`` naming the header otherwise."""
    if not _unguessable(key):
        detail = (
            f"without a token, send a random UUID or at least {MIN_BASE64URL} random characters"
            " of A-Z a-z 0-9 - _ (about 128 bits)"
        )
        raise ApiError("validation_error", "the Idempotency-Key is guessable", {"Idempotency-Key": [detail]})


def _unguessable(key: str) -> bool:
    """A UUID-like key (enough hex digits) or a base64url key of two kinds of characters, enough of them distinct."""
    if len(set(key.lower() if _HEX_KEY.fullmatch(key) else key) - {"-"}) < MIN_DISTINCT:
        return False
    if _HEX_KEY.fullmatch(key):
        return len(key.replace("-", "")) >= MIN_HEX_DIGITS
    kinds = sum(any(test(c) for c in key) for test in (str.islower, str.isupper, str.isdigit))
    return bool(_BASE64URL_KEY.fullmatch(key)) and len(key) >= MIN_BASE64URL and kinds >= 2
