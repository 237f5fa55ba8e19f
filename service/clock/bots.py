"""Server-side bots: one decision of the bot that plays a seat, from that seat's observation only.

Bots no longer run inside the change that gives them the chance: the live-play clock (``schedule``) decides
when each one is due (at once for The Game, at a human-like pace where the game has races, such as Ninja's
completions) and asks it here, one decision at a time, at most ``TG_BOT_DECISIONS`` per request. A decision
is deterministic: the bot is seeded with the game's seed plus the state's version, as it always was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import thegame_core as tg
from thegame_core.bots import create_bot


def decide(bot: str, state: tg.AnyState, seat: int, seed: int) -> Sequence[Any]:
    """The actions ``bot`` takes now for ``seat`` (a whole turn where the game has turns); empty: it declines."""
    return create_bot(bot, game=state.game, seed=seed + state.version).act(state.observe(seat))
