"""Leases: a key one run holds at a time, across processes (a game's clock), given back by
``lua/release.lua`` only with the token it was taken with."""

from __future__ import annotations

import secrets

import redis


def take_lease(client: redis.Redis | redis.RedisCluster, key: str, ms: int) -> str | None:
    """The lease ``key`` for ``ms``, taken for this one run (a token of its own: two runs of one process never share
    it); ``None`` if someone holds it."""
    token = secrets.token_hex(8)
    return token if client.set(key, token, nx=True, px=ms) else None
