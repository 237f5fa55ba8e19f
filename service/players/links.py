"""Link codes: another device of the same player gets a key of its own by typing a short code (no password).

A code is 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L), shown as ``ABCD-EFGH``: the first half
names the code (``tg:link:{<half>}``, a hash: player, the second half's hash, valid until, wrong tries, used), the
second half proves it. It is valid 10 minutes and used once (a Lua script checks and marks it atomically); its key
stays an hour, so that a used or expired code answers as such rather than as a wrong one.

Guessing is bounded twice: 5 wrong second halves spend a code (a crowd of addresses cannot go on guessing it), and
5 wrong codes from one address within 10 minutes stop that address (``tg:link-tries:{<address>}``, a counter that
expires 10 minutes after its first wrong try). Both answer ``429 rate_limited`` with ``Retry-After``. A guess
names one code among 31^8 (8.5 x 10^11): with a thousand codes live, an address's 5 tries in 10 minutes hit one
with a chance of 6 in a billion.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import NoReturn

import redis

from ..errors import ApiError
from ..storage.scripts import lua
from ..storage.store import text

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
HALF = 4
VALID_SECONDS = 600
KEPT_SECONDS = 3600
TRIES = 5
_SHAPE = re.compile(f"[{ALPHABET}]{{{2 * HALF}}}")
ID_ATTEMPTS = 8


def code_key(half: str) -> str:
    return f"tg:link:{{{half}}}"


def tries_key(address: str) -> str:
    return f"tg:link-tries:{{{address}}}"


def _hash(half: str) -> str:
    return hashlib.sha256(half.encode()).hexdigest()


def normal(code: str) -> str:
    """A code as typed: case, spaces and dashes do not matter."""
    return re.sub(r"[\s-]", "", code).upper()


def shown(code: str) -> str:
    return f"{code[:HALF]}-{code[HALF:]}"


class LinkCodes:
    def __init__(self, client: redis.Redis | redis.RedisCluster) -> None:
        self.client = client
        self.new_code = client.register_script(lua("link_new"))
        self.use_code = client.register_script(lua("link_use"))

    def make(self, player: str, now_ms: int) -> str:
        """A fresh code of ``player``, as shown (``ABCD-EFGH``)."""
        until = now_ms + VALID_SECONDS * 1000
        for _ in range(ID_ATTEMPTS):
            code = "".join(secrets.choice(ALPHABET) for _ in range(2 * HALF))
            half, proof = code[:HALF], code[HALF:]
            if self.new_code(keys=[code_key(half)], args=[player, _hash(proof), until, KEPT_SECONDS]):
                return shown(code)
        raise ApiError("store_busy", "could not draw a free link code; retry")

    def use(self, typed: str, address: str, now_ms: int) -> str:
        """The player whose code ``typed`` is (now used); ``429`` after too many wrong tries (this address's or
        this code's), ``422 link_code_invalid`` for a wrong code, ``410`` for a used or expired one."""
        self._refuse_spent_address(address)
        code = normal(typed)
        if not _SHAPE.fullmatch(code):
            self._wrong(address)
        outcome, player, left = self.use_code(keys=[code_key(code[:HALF])], args=[_hash(code[HALF:]), now_ms, TRIES])
        outcome = text(outcome)
        if outcome == "ok":
            return str(text(player))
        if outcome == "used":
            raise ApiError("link_code_used", "this code has been used; make a new one on your other device")
        if outcome == "expired":
            raise ApiError("link_code_expired", "this code has expired (codes last 10 minutes); make a new one")
        if outcome == "spent":
            seconds = max(1, int(left) // 1000)
            message = "too many wrong tries of this code; make a new one on your other device"
            raise ApiError("rate_limited", message, retry_after=seconds)
        self._wrong(address)

    def _refuse_spent_address(self, address: str) -> None:
        key = tries_key(address)
        tries = text(self.client.get(key))
        if tries is not None and int(tries) >= TRIES:
            seconds = max(1, int(self.client.ttl(key)))
            message = f"too many wrong codes from this client; retry in {seconds} s"
            raise ApiError("rate_limited", message, retry_after=seconds)

    def _wrong(self, address: str) -> NoReturn:
        """A wrong code from ``address``, counted: ``422 link_code_invalid``."""
        pipe = self.client.pipeline(transaction=True)
        pipe.incr(tries_key(address))
        pipe.expire(tries_key(address), VALID_SECONDS, nx=True)
        pipe.execute()
        raise ApiError("link_code_invalid", "no such code: check it on your other device")
