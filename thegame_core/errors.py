"""Errors raised by every game: one base class, one stable machine code per cause.

Callers (the HTTP service, bots, tests) branch on ``error.code``, never on the message,
so codes are part of the public API and never change meaning.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base of every rule or input error; ``code`` is stable and machine-readable."""

    code: str = "game_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class InvalidSetup(GameError):
    """The game cannot be created: bad player count, deck, option or first seat."""

    code = "invalid_setup"


class InvalidAction(GameError):
    """The action is malformed (unknown pile, impossible card or seat), whatever the state."""

    code = "invalid_action"


class IllegalAction(GameError):
    """The action is well-formed but the rules forbid it now; ``code`` names the rule."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """An in-turn action from a seat the game is not waiting for."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """Any action once the game has ended."""

    code = "game_over"


class WrongGame(GameError):
    """A bot of one game was asked to act on another game's observation."""

    code = "wrong_game"

    def __init__(self, bot_game: str, observation: object) -> None:
        other = getattr(observation, "game", None)
        if isinstance(other, str):
            message = f"this bot plays {bot_game}, not {other}: create it with create_bot(name, game={other!r})"
        else:
            message = f"this bot plays {bot_game} and acts on its observations, not on {type(observation).__name__}"
        super().__init__(message)


class CorruptState(GameError):
    """Serialized state that cannot be read back (wrong format version, broken invariant)."""

    code = "corrupt_state"


#: The codes every game shares, with their meaning; each game lists its own rule codes in its ``info``.
COMMON_ERROR_CODES: dict[str, str] = {
    "invalid_setup": "the game cannot be created with these players, deck, options or first seat",
    "invalid_action": "the action is malformed (unknown type or field, impossible value or seat)",
    "game_over": "the game has ended; no action is accepted",
    "not_your_turn": "an in-turn action from a seat the game is not waiting for",
    "corrupt_state": "serialized state cannot be read back",
    "unknown_game": "no game is registered under that name",
    "unknown_bot": "no bot of that name is registered for the game",
    "wrong_game": "a bot of one game was given another game's observation",
}
