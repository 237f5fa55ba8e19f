"""Bataille corse's two actions, their pinned dict form, and the compact notation of a game's history.

``Flip(seat)`` turns the next card over (C5); ``Slap(seat, pile_version)`` claims the pile as seen at that version
(C6). The history holds each slap as applied, with its ``result`` (``"valid"``, ``"false"`` or ``"stale"``) and, for
a stale one, how many versions ``behind`` the pile it was: the dict form of the log shows the result, the notation
uses ``behind`` so that a slap costs one character whatever the pile version.

Notation (one string for the whole history, no separators): ``.`` a flip (always by the seat on turn); ``a``..``h``
a slap by seat 0..7 on the current version; ``A``..``H`` a slap by seat 0..7 one version behind, followed by the
number of versions when more than one (``C3``). So a game of 10,000 flips and as many slaps writes about 20 KB.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...errors import InvalidAction
from .options import MAX_PLAYERS

VALID, FALSE, STALE = "valid", "false", "stale"
RESULTS = (VALID, FALSE, STALE)


class Flip(NamedTuple):
    """The seat on turn turns its next card over onto the pile."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "flip", "seat": self.seat}


class Slap(NamedTuple):
    """``seat`` slaps the pile it saw at ``pile_version``. ``result`` and ``behind`` are set on the history's copy."""

    seat: int
    pile_version: int
    result: str | None = None
    behind: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "slap", "seat": self.seat, "pile_version": self.pile_version}
        if self.result is not None:
            data["result"] = self.result
        return data


Action = Flip | Slap
FLIPS = tuple(Flip(seat) for seat in range(MAX_PLAYERS))  # shared: every flip of every game


def _int(value: Any, name: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise InvalidAction(f"{name} must be an integer {bounds}, got {value!r}")
    return value


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse the dict form: ``{"type": "flip", "seat": 0}``, ``{"type": "slap", "seat": 1, "pile_version": 7}``.

    A log entry's ``result`` is accepted and left out: the rules work it out again when the slap is applied.
    """
    if not isinstance(data, Mapping):
        raise InvalidAction(f"an action is an object, got {data!r}")
    kind = data.get("type")
    fields = {"flip": ("seat",), "slap": ("seat", "pile_version")}.get(kind) if type(kind) is str else None
    if fields is None:
        raise InvalidAction(f"action type must be flip or slap, got {kind!r}")
    given = set(data) - {"type"}
    extra = sorted(map(str, given - {*fields, *(("result",) if kind == "slap" else ())}))
    missing = [name for name in fields if name not in given]
    if extra or missing:
        raise InvalidAction(f"{kind} takes {', '.join(fields)}; missing {missing}, extra {extra}")
    seat = _int(data["seat"], "seat", 0, MAX_PLAYERS - 1)
    if kind == "flip":
        return FLIPS[seat]
    if "result" in data and data["result"] not in RESULTS:
        raise InvalidAction(f"a slap's result is one of {', '.join(RESULTS)}, got {data['result']!r}")
    return Slap(seat, _int(data["pile_version"], "pile_version", 0))


def notation(history: tuple[Action, ...]) -> str:
    """The compact notation of a whole history (see the module's docstring)."""
    parts = []
    for action in history:
        if type(action) is Flip:
            parts.append(".")
        elif action.behind == 0:  # type: ignore[union-attr]
            parts.append(chr(97 + action.seat))
        else:
            behind = action.behind  # type: ignore[union-attr]
            parts.append(chr(65 + action.seat) + (str(behind) if behind > 1 else ""))
    return "".join(parts)


class Token(NamedTuple):
    """One action read from the notation: a flip (``seat`` None) or a slap by ``seat``, ``behind`` versions late."""

    seat: int | None
    behind: int


FLIP_TOKEN = Token(None, 0)


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
        elif "a" <= char <= "h":
            found.append(Token(ord(char) - 97, 0))
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
