"""Server-side bots: one decision of the bot that plays a seat, from that seat's observation only.

Bots no longer run inside the change that gives them the chance: the live-play clock (``schedule``) decides
when each one is due (at once for The Game, at a human-like pace where the game has races, such as Ninja's
completions) and asks it here, one decision at a time, at most ``TG_BOT_DECISIONS`` per request. A decision
is deterministic: the bot is seeded with the game's seed plus the state's version, as it always was.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import thegame_core as tg
from thegame_core.bots import create_bot
from thegame_core.reaction import Paced

from .. import metrics


class Decision(NamedTuple):
    """What a bot does now (empty: it declines), and how much its kind of action adds to the bot's reaction (a
    real-time game's bot: ``thegame_core.reaction.Paced.pause_ms``; 0 for the others)."""

    actions: Sequence[Any]
    pause_ms: float


def decide(bot: str, state: tg.AnyState, seat: int, seed: int) -> Decision:
    """The decision of ``bot`` for ``seat`` (a whole turn where the game has turns)."""
    player = create_bot(bot, game=state.game, seed=seed + state.version)
    started = time.perf_counter()
    actions = player.act(state.observe(seat))
    metrics.get().bot_decision.labels(state.game).observe(time.perf_counter() - started)
    if not actions or not tg.get_game(state.game).realtime:
        return Decision(actions, 0.0)
    return Decision(actions, cast(Paced, player).pause_ms(actions))
