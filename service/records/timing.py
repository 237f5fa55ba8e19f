"""What the live-play clock stores with a game (``Timing``), and the time every request and read works at.

There is no clock process: every due time (a paced bot's next decision, a seat's deadline) is derived from
these few stored instants by ``schedule``. ``marks`` says who made each action of the log, one letter per
action, run-length encoded ("h3b12a2"): ``h`` the seat's owner, ``b`` a bot seat, ``a`` a bot the clock
put in for a human seat (a missed deadline or a takeover), ``c`` the game's own timer (a collection window's judge).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

OWNER, BOT, AUTO, TIMER = "h", "b", "a", "c"
_RUN = re.compile(r"([hbac])(\d+)")


def add_marks(marks: str, mark: str, count: int) -> str:
    """``marks`` followed by ``count`` actions made by ``mark``."""
    if count <= 0:
        return marks
    last = re.search(r"([hbac])(\d+)$", marks)
    if last is not None and last.group(1) == mark:
        return f"{marks[: last.start()]}{mark}{int(last.group(2)) + count}"
    return f"{marks}{mark}{count}"


def expand_marks(marks: str) -> str:
    """One letter per action."""
    return "".join(mark * int(count) for mark, count in _RUN.findall(marks))


def _seats(data: dict[str, Any]) -> dict[int, Any]:
    return {int(seat): value for seat, value in data.items()}


@dataclass(frozen=True)
class Timing:
    """``at``: when the state last changed (a paced bot decides ``reaction_ms`` after it); ``waits``: since when
    the game has been waiting for each seat it waits for (its deadline is ``turn_seconds`` later); ``missed``:
    deadlines each human seat missed in a row; ``overdue``: human seats whose deadline passed (at that time),
    played by a bot until the game stops waiting for them; ``since`` and ``seen``: for each bot seat, since when it
    has seen what it reacts to, and a digest of it (its wait restarts only when that changes)."""

    at: float = 0.0
    waits: dict[int, float] = field(default_factory=dict)
    missed: dict[int, int] = field(default_factory=dict)
    overdue: dict[int, float] = field(default_factory=dict)
    marks: str = ""
    since: dict[int, float] = field(default_factory=dict)
    seen: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "w": self.waits,
            "m": self.missed,
            "o": self.overdue,
            "k": self.marks,
            "s": self.since,
            "r": self.seen,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, actions: int) -> Timing:
        """The stored timing; a record written before the clock existed had none: its ``actions`` are the owners'."""
        if data is None:
            return cls(marks=add_marks("", OWNER, actions))
        return cls(
            float(data["at"]),
            _seats(data["w"]),
            _seats(data["m"]),
            _seats(data["o"]),
            str(data["k"]),
            _seats(data.get("s", {})),  # records written before bots reacted to what they react to have none
            _seats(data.get("r", {})),
        )
