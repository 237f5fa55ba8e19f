"""Game registry: one name per game, each game a package behind the same protocol (``protocol.Game``).

Games register themselves in ``thegame_core.games``; adding a game is one package plus one line there.
"""

from __future__ import annotations

from .errors import GameError
from .protocol import ActionT, AnyGame, Game, ObsT

_GAMES: dict[str, AnyGame] = {}


def register(game: Game[ActionT, ObsT]) -> Game[ActionT, ObsT]:
    """Register ``game`` under its name (idempotent for the same object)."""
    existing = _GAMES.get(game.name)
    if existing is not None and existing is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget the game registered as ``name`` (for tests that register a game of their own)."""
    _GAMES.pop(name, None)


def get_game(name: str) -> AnyGame:
    """The game registered as ``name``; ``GameError(code="unknown_game")`` otherwise."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_GAMES))
        raise GameError(f"unknown game {name!r}; known games: {known}", code="unknown_game") from None


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(_GAMES)
