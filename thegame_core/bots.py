"""Bots of every game: ``create_bot("greedy", game="ninja", seed=1).act(observation) -> [actions]``.

A bot decides only from an observation (``state.observe(seat)``: its own hand, public counts and
history), never from the hidden state. ``act`` returns the actions it takes now, in order: a whole
turn where the game has turns (for The Game, its plays then ``EndTurn``), or an empty list when it
declines to act now (not its turn; an optional out-of-turn action it does not want). Each game
lists its bots in its registry entry (``Game.bots``), so a new game brings its own;
``register_bot`` adds more (tuning scripts register variants under new names).
"""

from __future__ import annotations

from .errors import GameError
from .protocol import AnyBot, Bot, BotFactory
from .registry import get_game

__all__ = ["Bot", "bot_names", "create_bot", "register_bot"]

_ADDED: dict[tuple[str, str], BotFactory] = {}


def register_bot(game: str, name: str, factory: BotFactory) -> None:
    """Make ``factory(seed)`` available as bot ``name`` for ``game``, besides the game's own bots."""
    _ADDED[(game, name)] = factory


def _factories(game: str) -> dict[str, BotFactory]:
    added = {name: factory for (known, name), factory in _ADDED.items() if known == game}
    return {**get_game(game).bots, **added}


def bot_names(game: str = "the-game") -> list[str]:
    """The bots of ``game``, sorted."""
    return sorted(_factories(game))


def create_bot(name: str, *, game: str = "the-game", seed: int = 0) -> AnyBot:
    """A new bot (one per seat and game: bots may remember what they saw)."""
    try:
        factory = _factories(game)[name]
    except KeyError:
        raise GameError(
            f"unknown bot {name!r} for {game}; bots: {', '.join(bot_names(game))}", code="unknown_bot"
        ) from None
    return factory(seed)
