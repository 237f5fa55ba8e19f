"""Seal a secret for a token holder without knowing the token: X25519 (RFC 7748) in the stdlib's integers.

A rematch hands each seat a new token through the old game's seat view, but the store keeps only token hashes:
when the rematch is made nobody presents the old seat tokens. So each human seat also stores a public key
derived from its token when the token is made (``public_key``); a rematch seals the new token to it with a fresh
ephemeral key (``seal_for``); only the old token derives the private key that opens it (``open_with``). The store
alone opens nothing. A key operation is a pure-Python scalar multiplication (milliseconds): one per person
seated, three per person in a rematch, one per seat view of a finished game that has its rematch.
"""

from __future__ import annotations

import hashlib
import secrets

from .tokens import b64, unb64

_P = 2**255 - 19
_A24 = 121665
_BASE = (9).to_bytes(32, "little")


def x25519(scalar: bytes, point: bytes) -> bytes:
    """RFC 7748's X25519: ``scalar`` (clamped) times the Montgomery ``u`` coordinate ``point``."""
    k = int.from_bytes(scalar, "little")
    k = (k & ~7 & ~(128 << 248)) | (64 << 248)
    x1 = int.from_bytes(point, "little") & ((1 << 255) - 1)
    x2, z2, x3, z3, swap = 1, 0, x1, 1, 0
    for bit_index in reversed(range(255)):
        bit = (k >> bit_index) & 1
        if swap ^ bit:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        a, b, c, d = x2 + z2, x2 - z2, x3 + z3, x3 - z3
        aa, bb, da, cb = a * a % _P, b * b % _P, d * a % _P, c * b % _P
        e = aa - bb
        x3, z3 = (da + cb) ** 2 % _P, x1 * (da - cb) ** 2 % _P
        x2, z2 = aa * bb % _P, e * (aa + _A24 * e) % _P
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, _P - 2, _P) % _P).to_bytes(32, "little")


def _private_key(token: str) -> bytes:
    return hashlib.sha256(f"seat key\0{token}".encode()).digest()


def public_key(token: str) -> str:
    """What a seat stores beside its token's hash, so that secrets can be sealed for it later."""
    return b64(x25519(_private_key(token), _BASE))


def _pad(shared: bytes, context: str) -> bytes:
    return hashlib.sha256(b"seal\0" + shared + context.encode()).digest()


def seal_for(key: str, secret: str, context: str) -> str:
    """``secret`` (a token: 32 bytes) sealed for the holder of the token whose ``public_key`` is ``key``."""
    ephemeral = secrets.token_bytes(32)
    pad = _pad(x25519(ephemeral, unb64(key)), context)
    masked = bytes(a ^ b for a, b in zip(unb64(secret), pad, strict=True))
    return b64(x25519(ephemeral, _BASE) + masked)


def open_with(token: str, sealed: str, context: str) -> str:
    """The secret ``seal_for`` sealed for ``token``'s public key (garbage for any other token)."""
    raw = unb64(sealed)
    pad = _pad(x25519(_private_key(token), raw[:32]), context)
    return b64(bytes(a ^ b for a, b in zip(raw[32:], pad, strict=True)))


def rematch_context(game_id: str, seat: int) -> str:
    """What a seat's rematch token is sealed for: that seat of that new game, nothing else."""
    return f"rematch:{game_id}:{seat}"
