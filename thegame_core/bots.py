"""Registry of bots: ``create_bot("greedy", seed=1).act(observation) -> [actions]``.

A bot decides only from an ``Observation`` (its own hand, public counts, the public history and
signals), never from the hidden state. ``act`` returns the actions it takes now, in order:
for The Game, its plays for the rest of the turn followed by ``EndTurn`` (or nothing if it is not
its turn). New bots and bots for other games register with ``register_bot``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .errors import GameError
from .the_game.bots.basic import GreedyBot, RandomBot
from .the_game.bots.best import BestBot


class Bot(Protocol):
    def act(self, observation: Any) -> Sequence[Any]: ...


BotFactory = Callable[[int], Bot]

_BOTS: dict[tuple[str, str], BotFactory] = {
    ("the-game", "random"): RandomBot,
    ("the-game", "greedy"): GreedyBot,
    ("the-game", "best"): BestBot,
}


def register_bot(game: str, name: str, factory: BotFactory) -> None:
    """Make ``factory(seed)`` available as bot ``name`` for ``game``."""
    _BOTS[(game, name)] = factory


def bot_names(game: str = "the-game") -> list[str]:
    return sorted(name for known_game, name in _BOTS if known_game == game)


def create_bot(name: str, *, game: str = "the-game", seed: int = 0) -> Bot:
    """A new bot (one per seat and game: bots may remember what they saw)."""
    try:
        factory = _BOTS[(game, name)]
    except KeyError:
        raise GameError(
            f"unknown bot {name!r} for {game}; bots: {', '.join(bot_names(game))}", code="unknown_bot"
        ) from None
    return factory(seed)
