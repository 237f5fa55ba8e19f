"""What the live-play clock stores with a game (``Timing``), and the time every request and read works at.

There is no clock process: every due time (a paced bot's next decision, a seat's deadline) is derived from
these few stored instants by ``schedule``. ``marks`` says who made each action of the log: one letter per action,
run-length encoded, in a sequence of its own for each kind of action of each seat (its ``seat`` and ``type`` in the
log: ``{"0:flip": "h40a2h9", "0:slap": "h31", "0:judge": "c12", "1:flip": "b45"}``): ``h`` the seat's owner, ``b``
a bot seat, ``a`` a bot the clock put in for a human seat (a missed deadline or a takeover), ``c`` the game's own
timer (a collection window's judge, which the log files under the seat that slapped first). Split so, each sequence
is nearly always one letter: the marks of a game whose people, bots and referee take turns stay a few hundred
bytes, where one sequence for the whole log took about 2 bytes an action (10,000 flips of Bataille corse with 4
people and 4 bots went over the 64 KiB a game may take).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import thegame_core as tg

OWNER, BOT, AUTO, TIMER = "h", "b", "a", "c"
_RUN = re.compile(r"([hbac])(\d+)")
_LAST_RUN = re.compile(r"([hbac])(\d+)$")

#: A sequence of run-length encoded marks per ``kind``.
Marks = dict[str, str]


def _kind(entry: dict[str, Any]) -> str:
    """The sequence a log entry's mark goes to: its seat and type."""
    return f"{entry['seat']}:{entry['type']}"


def add_marks(marks: Marks, actions: Iterable[Any], mark: str) -> Marks:
    """``marks`` followed by ``actions``, each made by ``mark``."""
    marks = dict(marks)
    for action in actions:
        key = _kind(action.to_dict())
        runs = marks.get(key, "")
        last = _LAST_RUN.search(runs)
        if last is not None and last.group(1) == mark:
            marks[key] = f"{runs[: last.start()]}{mark}{int(last.group(2)) + 1}"
        else:
            marks[key] = f"{runs}{mark}1"
    return marks


def _expand(runs: str) -> str:
    return "".join(mark * int(count) for mark, count in _RUN.findall(runs))


def log_marks(marks: Marks, log: Iterable[dict[str, Any]]) -> list[str]:
    """One letter per entry of the public log."""
    letters = {key: iter(_expand(runs)) for key, runs in marks.items()}
    return [next(letters[_kind(entry)]) for entry in log]


def _split(runs: str, state: tg.AnyState | None) -> Marks:
    """Marks stored as one sequence for the whole log (before they were split by seat and type), split."""
    history = () if state is None else state.history
    marks: Marks = {}
    start = 0
    for mark, count in _RUN.findall(runs):
        marks = add_marks(marks, history[start : start + int(count)], mark)
        start += int(count)
    if start != len(history):
        raise ValueError(f"marks for {start} actions, the log has {len(history)}")
    return marks


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
    marks: Marks = field(default_factory=dict)
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
    def from_json(cls, data: dict[str, Any] | None, state: tg.AnyState | None) -> Timing:
        """The stored timing of the game at ``state``; a record written before the clock existed had none: its
        actions are the owners'."""
        if data is None:
            return cls(marks=_split(f"{OWNER}{0 if state is None else state.version}", state))
        marks = data["k"]
        return cls(
            float(data["at"]),
            _seats(data["w"]),
            _seats(data["m"]),
            _seats(data["o"]),
            _split(marks, state) if isinstance(marks, str) else dict(marks),
            _seats(data.get("s", {})),  # records written before bots reacted to what they react to have none
            _seats(data.get("r", {})),
        )
