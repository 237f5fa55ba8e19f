"""Tokens: long random secrets shown once, stored only as hashes, compared in constant time.

A token carries 256 random bits, so a plain SHA-256 is enough to store it (no salt or slow hash is
needed against guessing). Tokens never appear in logs: only their hashes are handled after parsing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Literal

from ..errors import ApiError

TOKEN_BYTES = 32
MAX_TOKEN_CHARS = 128


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def short_digest(data: bytes) -> str:
    """A 128-bit SHA-256 digest in 22 characters: enough to tell requests and idempotency keys apart."""
    return b64(hashlib.sha256(data).digest()[:16])


def new_game_id() -> str:
    """A game's id: 96 random bits in 16 URL-safe characters, never starting with ``-``, which command lines (the bot
    client's ``--game ID``) would take for an option."""
    while (game_id := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return game_id


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return b64(hashlib.sha256(token.encode()).digest())


def matches(token_digest: str, stored: str | None) -> bool:
    return stored is not None and hmac.compare_digest(token_digest, stored)


def seal(token: str, secret: str, context: str) -> str:
    """``token`` masked with a key derived from ``secret`` (an idempotency key), to hand it back on a retry."""
    raw = unb64(token)
    pad = hashlib.sha256(f"{context}\0{secret}".encode()).digest()
    return b64(bytes(a ^ b for a, b in zip(raw, pad, strict=True)))


def unseal(sealed: str, secret: str, context: str) -> str:
    return seal(sealed, secret, context)  # XOR with the same pad undoes it


#: Who a caller is: the host's token, a seat's token, or no token at all.
Role = Literal["host", "seat", "anyone"]
#: The roles a token gives, which a request may require.
TokenRole = Literal["host", "seat"]


@dataclass(frozen=True)
class Caller:
    """Who sent the request: ``role`` is ``"host"``, ``"seat"`` or ``"anyone"`` (no token)."""

    role: Role
    seat: int | None = None


#: Stands for a malformed Authorization header until the token check, which refuses it (checks run in order).
MALFORMED = "malformed"


def identify(
    digest: str | None,
    host: str,
    seats: list[str | None],
    player: str | None = None,
    seat_players: list[str | None] | None = None,
) -> Caller:
    """The caller owning ``digest``; ``401 invalid_token`` if it matches neither the host nor a seat. A player key
    (``player``: the player its checked key names) is the seat bound to that player, else nobody: a key never acts
    for a seat it is not bound to."""
    if player is not None:
        bound = seat_players or []
        return Caller("seat", bound.index(player)) if player in bound else Caller("anyone")
    if digest is None:
        return Caller("anyone")
    if digest == MALFORMED:
        raise ApiError("invalid_token", "send the token as 'Authorization: Bearer <token>'")
    if matches(digest, host):
        return Caller("host")
    for seat, stored in enumerate(seats):
        if matches(digest, stored):
            return Caller("seat", seat)
    raise ApiError("invalid_token", "the token is not valid for this game")


def require(caller: Caller, role: TokenRole) -> None:
    """``401`` without a token, ``403`` with a valid token of another role."""
    if caller.role == "anyone":
        raise ApiError("invalid_token", f"this request needs a {role} token")
    if caller.role != role:
        raise ApiError("forbidden", f"this request needs a {role} token, not a {caller.role} token")
