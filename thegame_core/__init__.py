"""thegame_core: card games as immutable state transitions, deterministic, serializable, replayable.

    import thegame_core as tg
    s = tg.new_game("the-game", players=3, seed=42)
    s = s.apply(s.legal_actions()[0])          # a new state; the old one is unchanged
    s.view(0), s.public_view(), tg.loads(tg.dumps(s)) == s

Every game is registered by name (``tg.game_names()``) and offers the same shape.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, overload

from . import analysis, games  # noqa: F401 (importing games registers every game)
from .analysis import analyse
from .daily import DailyDeal, DailyResult, daily_deal, daily_seed
from .dealt import DealtGame
from .errors import (
    COMMON_ERROR_CODES,
    CorruptState,
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidSetup,
    NotYourTurn,
    WrongGame,
)
from .fairness import deal_matches
from .games.the_game import (
    CARDS_IN_DECK,
    MAX_HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILES,
    PRESETS,
    SIGNAL_KINDS,
    STUCK_POLICIES,
    Action,
    EndTurn,
    Observation,
    Options,
    Play,
    Signal,
    State,
)
from .outcome import Outcome
from .protocol import AnyGame, AnyState, Game, GameInfo, GameState
from .registry import game_names, get_game, register

__version__ = "0.1.0"
__all__ = [
    "CARDS_IN_DECK",
    "ERROR_CODES",
    "MAX_HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PILES",
    "PRESETS",
    "SIGNAL_KINDS",
    "STUCK_POLICIES",
    "Action",
    "AnyGame",
    "AnyState",
    "CorruptState",
    "DailyDeal",
    "DailyResult",
    "EndTurn",
    "Game",
    "GameError",
    "GameInfo",
    "GameOver",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "InvalidSetup",
    "NotYourTurn",
    "Observation",
    "Options",
    "Outcome",
    "Play",
    "Signal",
    "State",
    "WrongGame",
    "analyse",
    "analysis",
    "daily_deal",
    "daily_seed",
    "deal_matches",
    "dumps",
    "game_names",
    "get_game",
    "loads",
    "new_game",
    "register",
    "replay",
]

#: Every code the library raises, with its meaning: the common codes, then each game's rule codes.
ERROR_CODES: dict[str, str] = {
    **COMMON_ERROR_CODES,
    **{code: text for name in game_names() for code, text in get_game(name).info.errors.items()},
}


@overload
def new_game(
    game: Literal["the-game"],
    players: int,
    *,
    seed: int | None = ...,
    deck: Sequence[int] | None = ...,
    options: Mapping[str, Any] | None = ...,
    first_seat: int = ...,
) -> State: ...
@overload
def new_game(
    game: str,
    players: int,
    *,
    seed: int | None = ...,
    deck: Sequence[int | str] | None = ...,
    options: Mapping[str, Any] | None = ...,
    first_seat: int = ...,
) -> AnyState: ...
def new_game(
    game: str,
    players: int,
    *,
    seed: int | None = None,
    deck: Sequence[int | str] | None = None,
    options: Mapping[str, Any] | None = None,
    first_seat: int = 0,
) -> AnyState:
    """A new, dealt game of ``game`` from ``seed`` or an explicit ``deck`` (exactly one of them)."""
    return get_game(game).new_game(players=players, seed=seed, deck=deck, options=options, first_seat=first_seat)


def replay(record: Mapping[str, Any]) -> AnyState:
    """Rebuild a game from its setup and actions (``state.replay_record()``, or the service's log)."""
    return get_game(record.get("game", "the-game")).replay(record)


def dumps(state: AnyState) -> str:
    """A compact JSON snapshot of ``state`` with its game name and format version."""
    return json.dumps(get_game(state.game).to_dict(state), separators=(",", ":"))


def loads(text: str | bytes, earlier: tuple[str, AnyState] | None = None) -> AnyState:
    """The state written by ``dumps``; ``CorruptState`` for anything else.

    ``earlier``: a snapshot and its state the caller holds (a cache's), e.g. of the same game some actions ago.
    Reading replays the whole history; when ``text`` continues ``earlier``'s snapshot (its text up to the end
    of the history, then more actions), a dealt game applies only the newer ones to the earlier state instead.
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise CorruptState(f"not a JSON snapshot: {error}") from None
    if not isinstance(data, dict):
        raise CorruptState("a snapshot is a JSON object")
    try:
        game = get_game(str(data.get("game")))
    except GameError:
        raise CorruptState(f"snapshot of an unknown game {data.get('game')!r}") from None
    if earlier is not None and isinstance(game, DealtGame) and isinstance(text, str) and _continues(text, earlier[0]):
        continued: AnyState = game.continued(earlier[1], data)
        return continued
    return game.from_dict(data)


def _continues(text: str, earlier: str) -> bool:
    """Whether ``text`` is ``earlier`` with more actions: ``dumps`` writes a dealt game's history last, so the two
    agree on everything up to the end of ``earlier``'s last action (setup included), then ``text`` goes on. The
    history is a list of notations (``...,"P0:5:asc1"]}``) or, for a game that writes it as one string, that
    string (``...,"history":"..a.B"}``)."""
    head = earlier[:-2]  # without the history's closing ``]`` (or quote) and the snapshot's ``}``
    if len(text) <= len(earlier) or not text.startswith(head):
        return False
    if earlier.endswith('"]}'):  # a list with at least one action: else there is nothing to skip
        return text[len(head)] == ","
    return earlier.endswith('"}') and text[len(head)] != '"'
