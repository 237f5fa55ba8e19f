"""Server-side bots: one decision of the bot that plays a seat, from that seat's observation only.

Bots no longer run inside the change that gives them the chance: the live-play clock (``schedule``) decides
when each one is due (at once for The Game, at a human-like pace where the game has races, such as Ninja's
completions) and asks it here, one decision at a time, at most ``TG_BOT_DECISIONS`` per request. A decision
is deterministic: the bot is seeded with the game's seed plus the state's version, as it always was.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, NamedTuple, TypeVar, cast

import thegame_core as tg
from thegame_core.bots import create_bot
from thegame_core.reaction import Paced

from .. import metrics

T = TypeVar("T")


class Decision(NamedTuple):
    """What a bot does now (empty: it declines), and how much its kind of action adds to the bot's reaction (a
    real-time game's bot: ``thegame_core.reaction.Paced.pause_ms``; 0 for the others)."""

    actions: Sequence[Any]
    pause_ms: float


def decide(bot: str, state: tg.AnyState, seat: int, seed: int) -> Decision:
    """The decision of ``bot`` for ``seat`` (a whole turn where the game has turns)."""
    player = create_bot(bot, game=state.game, seed=seed + state.version)
    started = time.perf_counter()
    actions = off_the_loop(lambda: player.act(state.observe(seat)))
    metrics.get().bot_decision.labels(state.game).observe(time.perf_counter() - started)
    if not actions or not tg.get_game(state.game).realtime:
        return Decision(actions, 0.0)
    return Decision(actions, cast(Paced, player).pause_ms(actions))


def off_the_loop(work: Callable[[], T]) -> T:
    """``work()``, in the process's thread for bots when gevent runs it, else here. A greenlet runs until it waits,
    and a bot's decision (pure CPU: ``best`` in Ninja, 4 to 20 ms) would hold every stream, request and other game's
    write of its process meanwhile; in a thread, it takes turns with them (``sys.getswitchinterval()``, which
    ``service/gunicorn_conf.py`` shortens). One thread: one decision at a time per process, whoever asks (the
    clock's runner, a read or a change catching a game up), so bots never hold more than one core's share of the
    interpreter."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None or not monkey.is_module_patched("threading"):
        return work()
    result: T = _bots_thread().apply(work)
    return result


@cache
def _bots_thread() -> Any:
    """gevent's pool of one thread for bots, made in the worker on first use (after the fork)."""
    from gevent.threadpool import ThreadPool

    return ThreadPool(1)
