"""Game registry: one name per game, each game a package behind the same small interface.

The Game is registered today; Ninja and Bataille corse (specified in the shared specs) plug in
later by registering an object with the same shape, without any change to callers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .errors import GameError


class GameState(Protocol):
    """What every game's immutable state offers to the service, bots and tools."""

    @property
    def game(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def current_seat(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def players(self) -> int: ...

    def apply(self, action: Any) -> GameState: ...
    def apply_all(self, actions: Sequence[Any]) -> GameState: ...
    def legal_actions(self) -> list[Any]: ...
    def view(self, seat: int) -> dict[str, Any]: ...
    def public_view(self) -> dict[str, Any]: ...
    def public_log(self) -> list[dict[str, Any]]: ...
    def replay_record(self) -> dict[str, Any]: ...


class Game(Protocol):
    """A registered game: creates states, reads them back, parses actions."""

    name: str

    def new_game(
        self,
        *,
        players: int,
        seed: int | None,
        deck: Sequence[int] | None,
        options: Mapping[str, Any] | None,
        first_seat: int,
    ) -> GameState: ...

    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, data: Mapping[str, Any]) -> GameState: ...

    def replay(self, record: Mapping[str, Any]) -> GameState: ...

    def parse_action(self, data: Mapping[str, Any]) -> Any: ...


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Register ``game`` under its name (idempotent for the same object)."""
    existing = _GAMES.get(game.name)
    if existing is not None and existing is not game:
        raise ValueError(f"a different game is already registered as {game.name!r}")
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The game registered as ``name``; ``GameError(code="unknown_game")`` otherwise."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_GAMES))
        raise GameError(f"unknown game {name!r}; known games: {known}", code="unknown_game") from None


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(_GAMES)
