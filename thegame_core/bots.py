"""Bots of every game: ``create_bot("greedy", game="ninja", seed=1).act(observation) -> [actions]``.

A bot decides only from an observation (``state.observe(seat)``: its own hand, public counts and
history), never from the hidden state. ``act`` returns the actions it takes now, in order: a whole
turn where the game has turns (for The Game, its plays then ``EndTurn``), or an empty list when it
declines to act now (not its turn; an optional out-of-turn action it does not want). Each game
lists its bots in its registry entry (``Game.bots``), so a new game brings its own;
``register_bot`` adds more (tuning scripts register variants under new names), and a name of the form
``package.module:Name`` is your own bot, imported from your code: ``Name(seed)`` makes it (a class or a function),
as the command lines take it (``--bot package.module:Name``; docs/your-bot.md).
"""

from __future__ import annotations

import importlib

from .errors import GameError
from .protocol import AnyBot, Bot, BotFactory
from .registry import get_game

__all__ = ["Bot", "bot_names", "create_bot", "imported_bot", "register_bot"]

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


def imported_bot(reference: str) -> BotFactory:
    """The bot factory ``reference`` names, ``"package.module:Name"``, imported (``GameError`` with the code
    ``unknown_bot`` if the module does not import or has no such class or function)."""
    module_name, _, name = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise GameError(f"bot {reference!r}: cannot import {module_name!r} ({error})", code="unknown_bot") from None
    factory = vars(module).get(name)
    if not callable(factory):
        raise GameError(f"bot {reference!r}: {module_name} has no class or function {name!r}", code="unknown_bot")
    return factory  # type: ignore[no-any-return]


def create_bot(name: str, *, game: str = "the-game", seed: int = 0) -> AnyBot:
    """A new bot (one per seat and game: bots may remember what they saw): one of ``game``'s by name, or your own
    as ``package.module:Name``."""
    if ":" in name:
        return imported_bot(name)(seed)
    try:
        factory = _factories(game)[name]
    except KeyError:
        raise GameError(
            f"unknown bot {name!r} for {game}; bots: {', '.join(bot_names(game))} (or your own, package.module:Name)",
            code="unknown_bot",
        ) from None
    return factory(seed)
