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


class CorruptState(GameError):
    """Serialized state that cannot be read back (wrong format version, broken invariant)."""

    code = "corrupt_state"


#: Every code the library raises, with its meaning, so clients can map them exhaustively.
ERROR_CODES: dict[str, str] = {
    "invalid_setup": "the game cannot be created with these players, deck, options or first seat",
    "invalid_action": "the action is malformed (unknown pile or kind, impossible card or seat)",
    "game_over": "the game has ended; no action is accepted",
    "not_your_turn": "only the current seat may play or end the turn",
    "card_not_in_hand": "the card is not in the acting seat's hand",
    "illegal_play": "the card cannot be placed on that pile",
    "minimum_not_reached": "the turn cannot end before the required number of cards is placed",
    "corrupt_state": "serialized state cannot be read back",
    "unknown_game": "no game is registered under that name",
}
