"""A player's profile and keys in Redis, on the player's slot (``tg:{p:<id>}:...``).

- ``tg:{p:<id>}:profile``, a hash: ``name``, ``since`` (ms), and ``played:<game>`` (finished games per game);
- ``tg:{p:<id>}:keys``, a hash: key id -> ``{"h": the key's SHA-256, "c": created (ms), "u": last used (ms)}``.

A key is checked by one ``HGET`` (its hash compared in constant time); its last use is written at most once a
minute, so a player's requests cost one read each, not a write. Both keys expire ``TG_PLAYER_TTL`` after a key's
last use (renewed with it): a player nobody uses that long is forgotten.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis

from ..play.tokens import matches
from ..storage.store import text
from . import keys

#: A key's last use is written again only when it is older than this (ms).
TOUCH_MS = 60_000


def profile_key(player: str) -> str:
    return keys.player_key(player, "profile")


def keys_key(player: str) -> str:
    return keys.player_key(player, "keys")


@dataclass(frozen=True)
class KeyInfo:
    """One of a player's keys as listed: never the key itself, which only its device holds."""

    key_id: str
    created_ms: int
    last_used_ms: int


@dataclass(frozen=True)
class Profile:
    player: str
    name: str
    since_ms: int
    played: dict[str, int]


class Accounts:
    def __init__(self, client: redis.Redis | redis.RedisCluster, ttl: int) -> None:
        """``ttl``: seconds a player lives after a key's last use."""
        self.client = client
        self.ttl = ttl

    def create(self, name: str, now_ms: int) -> tuple[str, str, str]:
        """A new player named ``name``: its id, its first key (shown once) and that key's id."""
        player = keys.new_player_id()
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(profile_key(player), mapping={"name": name, "since": now_ms})
        key, key_id = self._add_key(pipe, player, now_ms)
        self._renew(pipe, player)
        pipe.execute()
        return player, key, key_id

    def add_key(self, player: str, now_ms: int) -> tuple[str, str]:
        """Another key of ``player`` (a device linked): the key, shown once, and its id."""
        pipe = self.client.pipeline(transaction=False)
        key, key_id = self._add_key(pipe, player, now_ms)
        self._renew(pipe, player)
        pipe.execute()
        return key, key_id

    def _add_key(self, pipe: Any, player: str, now_ms: int) -> tuple[str, str]:
        key, key_id = keys.new_key(player)
        stored = {"h": keys.parse(key).digest, "c": now_ms, "u": now_ms}  # type: ignore[union-attr]
        pipe.hset(keys_key(player), key_id, json.dumps(stored))
        return key, key_id

    def resolve(self, key: str, now_ms: int) -> keys.ParsedKey | None:
        """The key's parts if it is one of its player's keys now (unknown, revoked or malformed: ``None``)."""
        parsed = keys.parse(key)
        if parsed is None:
            return None
        raw = text(self.client.hget(keys_key(parsed.player), parsed.key_id))
        if raw is None:
            return None
        stored = json.loads(raw)
        if not matches(parsed.digest, stored["h"]):
            return None
        if now_ms - stored["u"] > TOUCH_MS:
            pipe = self.client.pipeline(transaction=False)
            pipe.hset(keys_key(parsed.player), parsed.key_id, json.dumps({**stored, "u": now_ms}))
            self._renew(pipe, parsed.player)
            pipe.execute()
        return parsed

    def _renew(self, pipe: Any, player: str) -> None:
        pipe.expire(profile_key(player), self.ttl)
        pipe.expire(keys_key(player), self.ttl)

    def keys(self, player: str) -> list[KeyInfo]:
        """Every key of ``player``, oldest first."""
        stored = {text(key_id): json.loads(raw) for key_id, raw in self.client.hgetall(keys_key(player)).items()}
        listed = [KeyInfo(key_id, entry["c"], entry["u"]) for key_id, entry in stored.items()]
        return sorted(listed, key=lambda info: (info.created_ms, info.key_id))

    def revoke(self, player: str, key_id: str) -> bool:
        """Forget key ``key_id`` of ``player`` at once; ``False`` if it has no such key."""
        return bool(self.client.hdel(keys_key(player), key_id))

    def profile(self, player: str) -> Profile | None:
        stored = {text(field): text(value) for field, value in self.client.hgetall(profile_key(player)).items()}
        if "name" not in stored:
            return None
        played = {field[7:]: int(value) for field, value in stored.items() if field.startswith("played:")}
        return Profile(player, stored["name"], int(stored["since"]), played)

    def names(self, players: list[str]) -> list[str | None]:
        """Each player's name, in one round trip (``None``: no such player)."""
        pipe = self.client.pipeline(transaction=False)
        for player in players:
            pipe.hget(profile_key(player), "name")
        return [text(name) for name in pipe.execute()] if players else []

    def rename(self, player: str, name: str) -> None:
        self.client.hset(profile_key(player), "name", name)

    def forget(self, player: str, *others: str) -> None:
        """The player's profile and keys gone (its keys stop at once), with ``others`` of its keys (its index)."""
        self.client.delete(profile_key(player), keys_key(player), *others)
