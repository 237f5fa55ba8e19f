"""How a game ended and how far it is, the same for every game.

A module of its own so that a game's state and its views can both use them without importing
each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

#: How a game ended: The Game (cooperative) is won or lost, a competitive game is finished.
EndStatus = Literal["won", "lost", "finished"]
#: A state's status: playing until it ends.
Status = Literal["playing", EndStatus]
#: A game's outcome reasons (each game has its own ``Literal`` of codes, documented in its ``GameInfo``).
R = TypeVar("R", bound=str, covariant=True)


@dataclass(frozen=True, slots=True)
class Outcome(Generic[R]):
    """How a game ended, in the manner of python-chess's ``Outcome``.

    ``status`` is the game's end status (``"won"`` or ``"lost"`` for the cooperative The Game,
    ``"finished"`` for competitive games); ``reason`` says why, with a code each game documents;
    ``seat`` is the seat the reason names, if any (The Game: the seat that was stuck); ``winner``
    and ``ranking`` (seats, best first) are set by competitive games.
    """

    status: EndStatus
    reason: R
    seat: int | None = None
    winner: int | None = None
    ranking: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "reason": self.reason,
            "seat": self.seat,
            "winner": self.winner,
            "ranking": list(self.ranking),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Outcome[str] | None:
        """The outcome a view shows (``None`` while the game runs): the inverse of ``to_dict``."""
        if data is None:
            return None
        return cls(data["status"], data["reason"], data["seat"], data["winner"], tuple(data["ranking"]))


class Progress:
    """How far a game is, derived the same way for a state and for what a seat sees of it."""

    __slots__ = ()
    if TYPE_CHECKING:  # what the class it is mixed into holds (read-only: a game narrows the outcome's reasons)

        @property
        def outcome(self) -> Outcome[str] | None: ...
        @property
        def history(self) -> tuple[Any, ...]: ...

    @property
    def status(self) -> Status:
        """``"playing"`` until the game ends, then the outcome's status."""
        return "playing" if self.outcome is None else self.outcome.status

    @property
    def version(self) -> int:
        """Number of actions applied since the deal: +1 per action."""
        return len(self.history)
