"""Every deal can be checked: a server shows a game's ``seed_sha256`` from the start and its ``seed`` once it is
over; anyone then checks, offline, that the seed is the one committed to and that it deals the finished game's deck.

    tg.deal_matches(log["replay"], view["seed"], view["seed_sha256"])  # True for a fair deal

A seed chosen after the start would not hash to the commitment; a deck arranged by hand would not be the seed's.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from .daily import seed_commitment
from .errors import GameError
from .registry import get_game


def deal_matches(record: Mapping[str, Any], seed: int, seed_sha256: str) -> bool:
    """Whether ``seed`` hashes to ``seed_sha256`` and deals the deck of ``record`` (a replay record: its game,
    players and options); ``False`` for a record no game could deal."""
    if not hmac.compare_digest(seed_commitment(seed), seed_sha256):
        return False
    try:
        game = get_game(str(record.get("game", "the-game")))
        dealt = game.new_game(
            players=record["players"], seed=seed, deck=None, options=record["options"], first_seat=0
        ).replay_record()
    except (GameError, KeyError, TypeError):
        return False
    return bool(dealt["deck"] == list(record["deck"]))
