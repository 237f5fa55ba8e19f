"""Player keys: ``p.<player id>.<key id>.<secret>``, 256 random bits of secret, stored only as a hash.

The key names its player and its own id, so that checking one costs one read on the player's slot and nothing
global; the secret is what proves it. A seat token (URL-safe base64, no dot) never has this shape, so one
Authorization header carries either, told apart by shape alone.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from ..play.tokens import new_game_id, new_token, token_hash

PREFIX = "p"
_KEY = re.compile(r"p\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{8})\.[A-Za-z0-9_-]{43}")


@dataclass(frozen=True)
class ParsedKey:
    """A key as sent: whose (``player``), which of its keys (``key_id``), and the hash to compare (``digest``)."""

    player: str
    key_id: str
    digest: str


def player_key(player: str, part: str) -> str:
    """The Redis key of one part of a player's data: every part shares the player's slot (``{p:<id>}``), so one
    transaction, or one script on a Redis Cluster, can hold all of them."""
    return f"tg:{{p:{player}}}:{part}"


def new_player_id() -> str:
    """96 random bits, as a game id: never starting with ``-``."""
    return new_game_id()


def new_key(player: str) -> tuple[str, str]:
    """A fresh key of ``player`` and its id: shown once, then only its hash is kept."""
    key_id = secrets.token_urlsafe(6)
    return f"{PREFIX}.{player}.{key_id}.{new_token()}", key_id


def looks_like_key(text: str | None) -> bool:
    """Whether ``text`` has a player key's shape (it may still be unknown or revoked)."""
    return text is not None and text.startswith(f"{PREFIX}.") and text.count(".") == 3


def parse(text: str) -> ParsedKey | None:
    """The parts of a key of the right shape, else ``None``."""
    match = _KEY.fullmatch(text)
    if match is None:
        return None
    return ParsedKey(match.group(1), match.group(2), token_hash(text))
