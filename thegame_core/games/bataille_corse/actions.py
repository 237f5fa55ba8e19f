"""Bataille corse's actions, their pinned dict form, and the compact notation of a game's history.

``Flip(seat)`` turns the next card over (C5); ``Slap(seat, pile_version)`` claims the pile as seen at that version
(C6). The history holds each slap as applied, with its ``result`` (``"valid"``, ``"false"`` or ``"stale"``, or
``"pending"`` while a collection window gathers it) and, for a stale one, how many versions ``behind`` the pile it
was: the dict form of the log shows the result, the notation uses ``behind`` so that a slap costs one character
whatever the pile version.

With ``slap_window_ms`` a slap also carries ``at``, the referee's receive time in milliseconds (the service stamps
it; a client never sends it), and ``Judge`` is the referee's own action when the window closes: it judges the
gathered slaps, earliest received first, and its dict form lists what each did.

Notation (one string for the whole history, no separators): ``.`` a flip (always by the seat on turn); ``a``..``h``
a slap by seat 0..7 on the current version; ``A``..``H`` a slap by seat 0..7 one version behind, followed by the
number of versions when more than one (``C3``). So a game of 10,000 flips and as many slaps writes about 20 KB.
A gathered slap is its letter followed by its ``at`` as a signed difference from the previous gathered slap's
(``b1764190000000``, then ``a-3``, ``c41``); ``|`` is a judge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...errors import InvalidAction
from .options import MAX_PLAYERS

VALID, FALSE, STALE, PENDING = "valid", "false", "stale", "pending"
RESULTS = (VALID, FALSE, STALE, PENDING)


class Flip(NamedTuple):
    """The seat on turn turns its next card over onto the pile."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "flip", "seat": self.seat}


class Slap(NamedTuple):
    """``seat`` slaps the pile it saw at ``pile_version``, received at ``at`` (ms; only a window's slaps keep it).
    ``result``, ``behind`` and, for a valid slap, the ``combinations`` that held on the pile it won are set on the
    history's copy (the pile is gone once collected: the views read them here)."""

    seat: int
    pile_version: int
    result: str | None = None
    behind: int = 0
    at: int | None = None
    combinations: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "slap", "seat": self.seat, "pile_version": self.pile_version}
        if self.at is not None:
            data["at"] = self.at
        if self.result is not None:
            data["result"] = self.result
        return data


class Judge(NamedTuple):
    """The referee closes the collection window: the gathered slaps judged earliest received first. ``seat`` is the
    earliest's; ``results`` (seat, result) in the order judged and the ``combinations`` of the pile a valid one won
    (at most one is valid: the pile then changed), set on the history's copy."""

    seat: int
    results: tuple[tuple[int, str], ...] = ()
    combinations: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        judged = [{"seat": seat, "result": result} for seat, result in self.results]
        return {"type": "judge", "seat": self.seat, "results": judged}


Action = Flip | Slap | Judge
FLIPS = tuple(Flip(seat) for seat in range(MAX_PLAYERS))  # shared: every flip of every game
FIELDS = {"flip": ("seat",), "slap": ("seat", "pile_version"), "judge": ("seat",)}
#: Fields the dict form may carry beyond ``FIELDS``: a slap's receive time, and what the log shows as results.
OPTIONAL = {"flip": (), "slap": ("at", "result"), "judge": ("results",)}


def _int(value: Any, name: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise InvalidAction(f"{name} must be an integer {bounds}, got {value!r}")
    return value


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse the dict form: ``{"type": "flip", "seat": 0}``, ``{"type": "slap", "seat": 1, "pile_version": 7}``
    (with a window, ``"at": 1764190000000``), ``{"type": "judge", "seat": 1}``.

    A log entry's ``result`` (``results``) is accepted and left out: the rules work it out again when applied.
    """
    if not isinstance(data, Mapping):
        raise InvalidAction(f"an action is an object, got {data!r}")
    kind = data.get("type")
    if type(kind) is not str or kind not in FIELDS:
        raise InvalidAction(f"action type must be flip or slap (judge: the referee's), got {kind!r}")
    fields = FIELDS[kind]
    given = set(data) - {"type"}
    extra = sorted(map(str, given - {*fields, *OPTIONAL[kind]}))
    missing = [name for name in fields if name not in given]
    if extra or missing:
        raise InvalidAction(f"{kind} takes {', '.join(fields)}; missing {missing}, extra {extra}")
    seat = _int(data["seat"], "seat", 0, MAX_PLAYERS - 1)
    if kind == "flip":
        return FLIPS[seat]
    if kind == "judge":
        return Judge(seat)
    if "result" in data and data["result"] not in RESULTS:
        raise InvalidAction(f"a slap's result is one of {', '.join(RESULTS)}, got {data['result']!r}")
    at = None if data.get("at") is None else _int(data["at"], "at", 0)
    return Slap(seat, _int(data["pile_version"], "pile_version", 0), at=at)


def last_at(history: tuple[Action, ...]) -> int:
    """The receive time of the history's last gathered slap (0 if none): the next one's is written from it."""
    return next((action.at for action in reversed(history) if type(action) is Slap and action.at is not None), 0)


def notation(history: tuple[Action, ...]) -> str:
    """The compact notation of a whole history (see the module's docstring)."""
    parts = []
    previous = 0
    for action in history:
        if type(action) is Flip:
            parts.append(".")
        elif type(action) is Judge:
            parts.append("|")
        elif action.at is not None:  # type: ignore[union-attr]
            parts.append(f"{chr(97 + action.seat)}{action.at - previous}")  # type: ignore[union-attr]
            previous = action.at  # type: ignore[union-attr]
        elif action.behind == 0:  # type: ignore[union-attr]
            parts.append(chr(97 + action.seat))
        else:
            behind = action.behind  # type: ignore[union-attr]
            parts.append(chr(65 + action.seat) + (str(behind) if behind > 1 else ""))
    return "".join(parts)


class Token(NamedTuple):
    """One action read from the notation: a flip (``seat`` None), a judge (``seat`` -1) or a slap by ``seat``,
    ``behind`` versions late, received ``delta`` ms after the previous gathered slap (None: not gathered)."""

    seat: int | None
    behind: int
    delta: int | None = None


FLIP_TOKEN = Token(None, 0)
JUDGE_TOKEN = Token(-1, 0)


def tokens(text: str) -> list[Token]:
    """The actions of a notation, in order (``InvalidAction`` for anything malformed)."""
    if type(text) is not str:
        raise InvalidAction("a history notation is a string")
    found: list[Token] = []
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        index += 1
        if char == ".":
            found.append(FLIP_TOKEN)
        elif char == "|":
            found.append(JUDGE_TOKEN)
        elif "a" <= char <= "h":
            start = index
            index += text[index : index + 1] == "-"
            while index < size and "0" <= text[index] <= "9":
                index += 1
            delta = text[start:index]
            if delta and (delta == "-" or str(int(delta)) != delta):  # one way to write each number
                raise InvalidAction(f"bad slap time in the notation at {start}")
            found.append(Token(ord(char) - 97, 0, int(delta) if delta else None))
        elif "A" <= char <= "H":
            start = index
            while index < size and "0" <= text[index] <= "9":
                index += 1
            behind = int(text[start:index]) if index > start else 1
            if behind < 1 or (index > start and behind < 2) or text[start : start + 1] == "0":
                raise InvalidAction(f"bad slap delay in the notation at {start}")
            found.append(Token(ord(char) - 65, behind))
        else:
            raise InvalidAction(f"not a Bataille corse notation: {char!r} at {index - 1}")
    return found
