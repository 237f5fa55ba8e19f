"""Players: a person who is someone across games and devices, with no password (docs/api.md, "Players").

- ``keys``: a player key's shape (``p.<player id>.<key id>.<secret>``), made and read without Redis.
- ``accounts``: a player's profile and keys in Redis (made, listed, checked, revoked), all on the player's slot.
- ``links``: single-use link codes that give another device a key of the same player, and their tries.
- ``index``: the player's games (live ones first, newest first), kept beside the games, on the player's slot.
- ``erase``: a player leaves for good: its name in kept games becomes "deleted player", then its data goes.
- ``export``: kept games as lines of JSON (the NDJSON export, ``python -m service export``).

Every key of one player is under the hash tag ``{p:<player id>}``: a player's reads and writes touch one Redis
Cluster slot; a game's seat names its player inside the game's own record, so the game's compare-and-set covers it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .accounts import Accounts
from .index import GameIndex
from .links import LinkCodes


@dataclass(frozen=True)
class Players:
    """What players run on in one process: their accounts, their games' index and the link codes."""

    accounts: Accounts
    index: GameIndex
    links: LinkCodes


__all__ = ["Accounts", "GameIndex", "LinkCodes", "Players"]
