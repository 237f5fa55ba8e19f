"""Ninja's actions as small value objects, with the pinned dict form (HTTP, logs) and a compact
notation (snapshots), in the manner of python-chess moves and their UCI strings.

Named tuples: immutable, hashable and cheap (a simulated game builds hundreds). The rules accept
only these exact types with exact field types (``True`` is not a seat), checked by ``shape_problem``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from ...dealt import seat_problem
from ...errors import InvalidAction
from .cards import HIGHEST, MAX_COPIES, NINJA
from .options import MAX_PLAYERS


class Swap(NamedTuple):
    """Swap phase (N4.3): exchange ``hand_card`` from the hand with ``face_up_card`` from the table."""

    seat: int
    hand_card: int
    face_up_card: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "swap", "seat": self.seat, "hand_card": self.hand_card, "face_up_card": self.face_up_card}

    def notation(self) -> str:
        return f"S{self.seat}:{self.hand_card}:{self.face_up_card}"


class Ready(NamedTuple):
    """Swap phase: ``seat`` is done swapping; play starts when every seat is ready."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "ready", "seat": self.seat}

    def notation(self) -> str:
        return f"R{self.seat}"


class Play(NamedTuple):
    """Place ``count`` cards of ``value`` (0: NINJA): a turn play (N6), a counter to a give (N8) or,
    with ``ninja_out_of_turn``, NINJA out of turn.

    ``value=None`` (``count`` 1) is the blind play of ``table_mode="play_from_table"``: the seat's next
    face-down card, turned over on the pile, whose value nobody knows before.
    """

    seat: int
    value: int | None
    count: int  # type: ignore[assignment]  # the pinned field name hides tuple.count, unused here

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "value": self.value, "count": self.count}

    def notation(self) -> str:
        return f"B{self.seat}" if self.value is None else f"P{self.seat}:{self.value}:{self.count}"


class PickUp(NamedTuple):
    """Take the whole pile into the hand (N11): only without a legal group unless ``voluntary_pickup``."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pick_up", "seat": self.seat}

    def notation(self) -> str:
        return f"U{self.seat}"


class Give(NamedTuple):
    """After placing 13s, name the ``target`` who must take the pile or counter (N8); ``None``
    declines to give, with ``give_optional`` only."""

    seat: int
    target: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"type": "give", "seat": self.seat, "target": self.target}

    def notation(self) -> str:
        return f"G{self.seat}" if self.target is None else f"G{self.seat}:{self.target}"


class Accept(NamedTuple):
    """The target of a give takes the whole pile (N8)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "accept", "seat": self.seat}

    def notation(self) -> str:
        return f"A{self.seat}"


class Complete(NamedTuple):
    """Out of turn, place the missing copies of ``value`` on the open completion window (N9)."""

    seat: int
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "complete", "seat": self.seat, "value": self.value}

    def notation(self) -> str:
        return f"C{self.seat}:{self.value}"


class TakeFaceUp(NamedTuple):
    """During a refill that must choose among face-up cards, take one of ``value`` into the hand (N10)."""

    seat: int
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "take_face_up", "seat": self.seat, "value": self.value}

    def notation(self) -> str:
        return f"T{self.seat}:{self.value}"


Action = Swap | Ready | Play | PickUp | Give | Accept | Complete | TakeFaceUp
ACTION_TYPES = (Swap, Ready, Play, PickUp, Give, Accept, Complete, TakeFaceUp)


def _equal(self: tuple[Any, ...], other: object) -> bool:
    return type(other) is type(self) and tuple.__eq__(self, other)


def _not_equal(self: tuple[Any, ...], other: object) -> bool:
    return not _equal(self, other)


def _hash(self: tuple[Any, ...]) -> int:
    return hash((type(self).__name__, tuple.__hash__(self)))


# Named tuples compare as plain tuples, so PickUp(1) would equal Accept(1) and Ready(1): an action
# is equal only to an action of its own type (and hashes accordingly), never to a bare tuple.
for _type in ACTION_TYPES:
    _type.__eq__ = _equal  # type: ignore[method-assign]
    _type.__ne__ = _not_equal  # type: ignore[assignment,method-assign]
    _type.__hash__ = _hash  # type: ignore[method-assign]
#: The dict form's fields of each type besides ``type`` and ``seat``.
FIELDS: dict[str, tuple[str, ...]] = {
    "swap": ("hand_card", "face_up_card"),
    "ready": (),
    "play": ("value", "count"),
    "pick_up": (),
    "give": ("target",),
    "accept": (),
    "complete": ("value",),
    "take_face_up": ("value",),
}
_CLASSES: dict[str, type[Any]] = dict(zip(FIELDS, ACTION_TYPES, strict=True))


def shape_problem(action: object, players: int) -> str | None:
    """Why ``action`` is malformed in a game of ``players`` seats, or None if it is well-formed.

    Exact types only (no subclasses, no ``True`` for 1), checked before any comparison. Every
    action goes through here, so the common cases are tested first and inline.
    """
    kind = type(action)
    if kind not in _CARD_FIELDS:
        return f"not an action of Ninja: {action!r}"
    seat = action.seat  # type: ignore[attr-defined]
    if type(seat) is not int or not 0 <= seat < players:
        return seat_problem(seat, players)
    if kind is Play:
        value, count = action.value, action.count  # type: ignore[attr-defined]
        if type(count) is not int or not 1 <= count <= MAX_COPIES:
            return f"count must be an integer from 1 to {MAX_COPIES}, got {count!r}"
        if value is None:
            return None if count == 1 else f"a blind play (value null) has count 1, got {count!r}"
    elif kind is Give:
        target = action.target  # type: ignore[attr-defined]
        if target is not None and (type(target) is not int or not 0 <= target < players):
            return f"target must be a seat from 0 to {players - 1} or null, got {target!r}"
    for name in _CARD_FIELDS[kind]:
        card = getattr(action, name)
        if type(card) is not int or not NINJA <= card <= HIGHEST:
            return f"{name} must be an integer from 0 (NINJA) to 13, got {card!r}"
    return None


#: The fields of each action type that hold a card value.
_CARD_FIELDS: dict[type[Any], tuple[str, ...]] = {
    Play: ("value",),
    Swap: ("hand_card", "face_up_card"),
    Ready: (),
    PickUp: (),
    Give: (),
    Accept: (),
    Complete: ("value",),
    TakeFaceUp: ("value",),
}


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse the dict form (``{"type": "play", "seat": 0, "value": 7, "count": 2}``).

    The fields must be exactly those of the type (``give`` may leave ``target`` out: no give);
    the value types and ranges are checked here too (seats up to the most players; the game checks its own).
    """
    if not isinstance(data, Mapping):
        raise InvalidAction(f"an action is an object, got {data!r}")
    kind = data.get("type")
    if type(kind) is not str or kind not in FIELDS:
        raise InvalidAction(f"action type must be one of {', '.join(FIELDS)}, got {kind!r}")
    fields = FIELDS[kind]
    given = dict(data)
    if kind == "give":
        given.setdefault("target", None)
    extra = sorted(map(str, set(given) - {"type", "seat", *fields}))
    missing = [name for name in ("seat", *fields) if name not in given]
    if extra or missing:
        raise InvalidAction(
            f"{kind} takes seat, {', '.join(fields) or 'nothing else'}; missing {missing}, extra {extra}"
        )
    action: Action = _CLASSES[kind](given["seat"], *(given[name] for name in fields))
    problem = shape_problem(action, MAX_PLAYERS)  # the game checks seats against its own player count
    if problem is not None:
        raise InvalidAction(problem)
    return action


_TAGS: dict[str, tuple[type[Any], int]] = {
    "S": (Swap, 3),
    "R": (Ready, 1),
    "P": (Play, 3),
    "U": (PickUp, 1),
    "A": (Accept, 1),
    "C": (Complete, 2),
    "T": (TakeFaceUp, 2),
}


@lru_cache(maxsize=4096)  # loading a snapshot parses a whole game of notations, most of them repeated
def action_from_notation(text: str) -> Action:
    """Parse the compact notation written by ``notation()`` (``P0:7:2``, ``B1``, ``G0:2``, ``G0``, ``R3``...)."""
    try:
        tag, fields = text[0], [int(part) for part in text[1:].split(":")]
        if tag == "B" and len(fields) == 1:
            return Play(fields[0], None, 1)
        if tag == "G" and len(fields) in (1, 2):
            return Give(fields[0], fields[1] if len(fields) == 2 else None)
        cls, arity = _TAGS[tag]
        if len(fields) == arity:
            action: Action = cls(*fields)
            return action
    except (IndexError, ValueError, KeyError):
        pass
    raise InvalidAction(f"not a Ninja action notation: {text!r}")
