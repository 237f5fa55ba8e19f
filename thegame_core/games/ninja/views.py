"""What one seat, or a spectator, may see (spec "Views"): the only door to hidden information.

``Observation`` holds the seat's own hand, the public table (the pile, every face-up card, counts)
and the public history; never another hand, never a face-down card, never the stock's order. Bots
decide from it, and the JSON views are its ``to_dict()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ...dealt import Seen
from .actions import Action, action_from_dict
from .cards import CARDS_IN_DECK, TABLE_CARDS
from .fields import Phase
from .options import Options

GAME_NAME = "ninja"


class SeenGive(NamedTuple):
    """A give under way, as everyone sees it (N8): ``target`` None while the giver names one."""

    giver: int
    target: int | None


class SeenWindow(NamedTuple):
    """An open completion window, as everyone sees it (N9): the value on top and the seat that placed it."""

    value: int
    placed_by: int


@dataclass(slots=True)
class Observation(Seen):
    """One seat's (or a spectator's, ``seat=None``) knowledge of the game at one moment (``dealt.Seen``). ``legal``
    is the seat's legal actions (empty for a spectator), computed by the game from what the seat may know."""

    game: ClassVar[str] = GAME_NAME

    options: Options
    hand: tuple[int, ...]
    phase: Phase | None
    pile: tuple[int, ...]
    ref: int | None
    stock: int
    burned: int
    give: SeenGive | None
    completion: SeenWindow | None
    hand_sizes: tuple[int, ...]
    face_up: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...]
    ready: tuple[bool, ...]
    legal: tuple[Action, ...]

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    def seats(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "hand_size": size, "face_up": list(up), "face_down": down, "ready": ready}
            for seat, (size, up, down, ready) in enumerate(
                zip(self.hand_sizes, self.face_up, self.face_down, self.ready, strict=True)
            )
        ]

    def table(self) -> dict[str, Any]:
        give, completion = self.give, self.completion
        return {
            "phase": self.phase,
            "pile": list(self.pile),
            "ref": self.ref,
            "stock": self.stock,
            "burned": self.burned,
            "give": None if give is None else give._asdict(),
            "completion": None if completion is None else completion._asdict(),
        }

    def own(self) -> dict[str, Any]:
        return {"hand": list(self.hand)}


def observation_from_view(view: Mapping[str, Any], options: Options, history: tuple[Action, ...]) -> Observation:
    """The inverse of ``Observation.to_dict()``, given the resolved options and the history the view leaves out."""
    seats, give, completion = view["seats"], view["give"], view["completion"]
    return Observation(
        **Seen.seen_in(view, options, history),
        hand=tuple(view.get("hand", ())),
        phase=view["phase"],
        pile=tuple(view["pile"]),
        ref=view["ref"],
        stock=view["stock"],
        burned=view["burned"],
        give=None if give is None else SeenGive(give["giver"], give["target"]),
        completion=None if completion is None else SeenWindow(completion["value"], completion["placed_by"]),
        hand_sizes=tuple(entry["hand_size"] for entry in seats),
        face_up=tuple(tuple(entry["face_up"]) for entry in seats),
        face_down=tuple(entry["face_down"] for entry in seats),
        ready=tuple(entry["ready"] for entry in seats),
        legal=Seen.legal_in(view, action_from_dict),
    )


def lobby_view(options: Options) -> dict[str, Any]:
    """The public view of the table before the deal: status ``"lobby"``, nothing dealt, every card in the stock."""
    players = options.players
    return Observation.lobby_view(
        options,
        hand=(),
        phase=None,
        pile=(),
        ref=None,
        stock=CARDS_IN_DECK,
        burned=0,
        give=None,
        completion=None,
        hand_sizes=(0,) * players,
        face_up=((),) * players,
        face_down=(0,) * players,
        ready=(False,) * players,
        legal=(),
    )


#: JSON Schema fragments of the fields Ninja adds to the common view fields (``GameInfo.view``).
CARD_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 13, "description": "0 is NINJA"}
VIEW_SCHEMA: dict[str, dict[str, Any]] = {
    "phase": {
        "type": ["string", "null"],
        "enum": ["swap", "play", "give", "refill", None],
        "description": "swap: seats swap and get ready; play: a seat is to play; give: a 13's giver names a target, "
        "then the target responds; refill: the placer chooses a face-up card to take (null in the lobby)",
    },
    "pile": {"type": "array", "items": CARD_SCHEMA, "description": "every card on the pile, bottom first"},
    "ref": {
        "type": ["integer", "null"],
        "minimum": 1,
        "maximum": 13,
        "description": "the card to beat (N5): the topmost non-NINJA card, or null",
    },
    "stock": {"type": "integer", "minimum": 0, "description": "cards left in the stock"},
    "burned": {"type": "integer", "minimum": 0, "description": "cards burned (out of the game)"},
    "give": {
        "type": ["object", "null"],
        "properties": {"giver": {"type": "integer"}, "target": {"type": ["integer", "null"]}},
        "description": "a give under way: target null while the giver names one",
    },
    "completion": {
        "type": ["object", "null"],
        "properties": {"value": CARD_SCHEMA, "placed_by": {"type": "integer"}},
        "description": "an open completion window (N9): the value on top and the seat that placed it",
    },
    "seats": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "seat": {"type": "integer"},
                "hand_size": {"type": "integer", "minimum": 0},
                "face_up": {"type": "array", "items": CARD_SCHEMA, "description": "sorted ascending"},
                "face_down": {"type": "integer", "minimum": 0, "maximum": TABLE_CARDS, "description": "a count"},
                "ready": {"type": "boolean", "description": "done swapping"},
            },
        },
    },
}
SEAT_VIEW_SCHEMA: dict[str, dict[str, Any]] = {
    "hand": {"type": "array", "items": CARD_SCHEMA, "description": "this seat's hand, sorted ascending"},
    "legal_actions": {
        "type": "array",
        "items": {"type": "object", "properties": {"type": {"type": "string"}}},
        "description": "every action this seat may send now, in dict form without seat",
    },
}
