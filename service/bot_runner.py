"""Server-side bots: after every change, bot seats act, in the order the game asks seats, until none wants to.

Until the live-play clock exists, bots act at once inside the change that gave them the chance: The Game's
bots play their whole turns; in races (a Ninja completion) a bot claims at once, and a person's claim wins only
when it reaches the store before the change that lets the bot act.
"""

from __future__ import annotations

from collections.abc import Mapping

import thegame_core as tg
from thegame_core.bots import create_bot

#: Bound on bot decisions in one change (a whole all-bot game of The Game needs about 150 with the random bot).
MAX_BOT_DECISIONS = 2000


def run_bots(bots: Mapping[int, str], state: tg.GameState, seed: int) -> tg.GameState:
    """``state`` after the bot seats (seat -> bot name) have acted for as long as one of them wants to."""
    if not bots:
        return state
    for _ in range(MAX_BOT_DECISIONS):
        after = _one_bot_acts(bots, state, seed) if state.status == "playing" else None
        if after is None:
            break
        state = after
    return state


def _one_bot_acts(bots: Mapping[int, str], state: tg.GameState, seed: int) -> tg.GameState | None:
    """The state after the first bot, in the game's asking order, that acts; ``None`` if none does."""
    for seat in state.asking_order():
        name = bots.get(seat)
        if name is None:
            continue
        actions = create_bot(name, game=state.game, seed=seed + state.version).act(state.observe(seat))
        if actions:
            return state.apply_all(actions)
    return None
