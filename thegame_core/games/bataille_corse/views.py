"""What one seat, or a spectator, may see ("Views"): the only door to hidden information.

Nobody sees a packet's cards, not even its owner: a packet is a count. ``Observation`` holds the face-up pile,
the count of face-down penalty cards under it, the pile version, the challenge, and per seat its packet count,
state and errors; a seat's adds the actions it may send (a slap is listed whenever the seat may slap: whether it
would be valid is the seat's own judgement). Bots decide from it, and the JSON views are its ``to_dict()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...dealt import Seen
from .actions import Action, Flip, Slap, action_from_dict
from .cards import CARD_OF, NAMES
from .options import COMBINATIONS, Options

GAME_NAME = "bataille-corse"
IN, OUT, EXCLUDED = "in", "out", "excluded"


@dataclass(slots=True)
class Observation(Seen):
    """One seat's (or a spectator's, ``seat=None``) knowledge of the game at one moment (``dealt.Seen``); ``pile``
    holds card ints (``cards.NAMES`` gives their strings), bottom first; ``challenge`` is (challenger, payer,
    attempts left); ``window`` an open collection window: when it closes (ms) and the seats whose slaps it gathered,
    in order; ``last_slap`` the last slap judged since the last flip (seat, result, the combinations of the pile it
    won)."""

    game: ClassVar[str] = GAME_NAME

    options: Options
    #: Not compared: the state's slaps carry their results, which a log's dict form leaves out (the rules work them
    #: out again), so an observation read back from a view and the log equals the state's on everything else.
    history: tuple[Action, ...] = field(compare=False)
    pile: tuple[int, ...]
    penalty_cards: int
    pile_version: int
    challenge: tuple[int, int, int] | None
    flips: int
    packets: tuple[int, ...]
    states: tuple[str, ...]
    errors: tuple[int, ...]
    window: tuple[int, tuple[int, ...]] | None
    legal: tuple[Action, ...]
    last_slap: tuple[int, str, tuple[str, ...]] | None = None

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    @property
    def flip(self) -> Flip | None:
        """The flip this seat may send now, if it is on turn."""
        return next((action for action in self.legal if type(action) is Flip), None)

    @property
    def slap(self) -> Slap | None:
        """The slap this seat may send now (on the pile version it sees), if any."""
        return next((action for action in self.legal if type(action) is Slap), None)

    def seats(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "packet": packet, "state": state, "errors": errors}
            for seat, (packet, state, errors) in enumerate(zip(self.packets, self.states, self.errors, strict=True))
        ]

    def table(self) -> dict[str, Any]:
        challenge, window, slap = self.challenge, self.window, self.last_slap
        return {
            "pile": [NAMES[card] for card in self.pile],
            "penalty_cards": self.penalty_cards,
            "pile_version": self.pile_version,
            "challenge": None
            if challenge is None
            else {"challenger": challenge[0], "payer": challenge[1], "attempts_left": challenge[2]},
            "flips": self.flips,
            "slap_window": None if window is None else {"closes_at": window[0], "slaps": list(window[1])},
            "last_slap": None if slap is None else {"seat": slap[0], "result": slap[1], "combinations": list(slap[2])},
        }


def observation_from_view(view: Mapping[str, Any], options: Options, history: tuple[Action, ...]) -> Observation:
    """The inverse of ``Observation.to_dict()``, given the resolved options and the history the view leaves out."""
    seats, challenge, window = view["seats"], view["challenge"], view["slap_window"]
    slap = view.get("last_slap")  # a view stored before it was added has none
    return Observation(
        **Seen.seen_in(view, options, history),
        pile=tuple(CARD_OF[name] for name in view["pile"]),
        penalty_cards=view["penalty_cards"],
        pile_version=view["pile_version"],
        challenge=None
        if challenge is None
        else (challenge["challenger"], challenge["payer"], challenge["attempts_left"]),
        flips=view["flips"],
        packets=tuple(entry["packet"] for entry in seats),
        states=tuple(entry["state"] for entry in seats),
        errors=tuple(entry["errors"] for entry in seats),
        window=None if window is None else (window["closes_at"], tuple(window["slaps"])),
        legal=Seen.legal_in(view, action_from_dict),
        last_slap=None if slap is None else (slap["seat"], slap["result"], tuple(slap["combinations"])),
    )


def lobby_view(options: Options) -> dict[str, Any]:
    """The public view of the table before the deal: status ``"lobby"``, nothing dealt."""
    players = options.players
    return Observation.lobby_view(
        options,
        pile=(),
        penalty_cards=0,
        pile_version=0,
        challenge=None,
        flips=0,
        packets=(0,) * players,
        states=(IN,) * players,
        errors=(0,) * players,
        window=None,
        legal=(),
    )


#: JSON Schema fragments of the fields Bataille corse adds to the common view fields (``GameInfo.view``).
CARD_SCHEMA: dict[str, Any] = {
    "type": "string",
    "enum": list(NAMES),
    "description": 'rank A, 2..10, J, Q, K then suit S, H, D, C ("AS", "10H"); jokers "RJ", "BJ"',
}
VIEW_SCHEMA: dict[str, dict[str, Any]] = {
    "pile": {"type": "array", "items": CARD_SCHEMA, "description": "the face-up cards, bottom first"},
    "penalty_cards": {
        "type": "integer",
        "minimum": 0,
        "description": "face-down penalty cards under the pile (penalty_place bottom)",
    },
    "pile_version": {
        "type": "integer",
        "minimum": 0,
        "description": "+1 for every change to the face-up pile (a flip, a collect, a penalty on top); a slap carries "
        "the version its player saw",
    },
    "challenge": {
        "type": ["object", "null"],
        "properties": {
            "challenger": {"type": "integer"},
            "payer": {"type": "integer"},
            "attempts_left": {"type": "integer", "minimum": 1},
        },
        "description": "an open challenge: the payer flips until an honour or attempts_left runs out",
    },
    "flips": {"type": "integer", "minimum": 0, "description": "cards flipped so far"},
    "slap_window": {
        "type": ["object", "null"],
        "properties": {
            "closes_at": {"type": "integer", "description": "when it closes: epoch milliseconds, the server's clock"},
            "slaps": {"type": "array", "items": {"type": "integer"}, "description": "seats whose slaps it holds"},
        },
        "description": "an open collection window (slap_window_ms): slaps on this pile_version are gathered, "
        "answered pending, and judged when it closes, the earliest received first; nobody flips meanwhile",
    },
    "last_slap": {
        "type": ["object", "null"],
        "properties": {
            "seat": {"type": "integer"},
            "result": {"type": "string", "enum": ["valid", "false"]},
            "combinations": {
                "type": "array",
                "items": {"type": "string", "enum": list(COMBINATIONS)},
                "description": "for a valid slap, the enabled combinations that held on the pile it won",
            },
        },
        "description": "the last slap judged since the last flip (one applied valid or false, or the decisive one "
        "of a window's judge: the valid one, else the earliest received); null after a flip. A stale slap leaves it "
        "as it was, and so does a gathered one until its window is judged",
    },
    "seats": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "seat": {"type": "integer"},
                "packet": {"type": "integer", "minimum": 0, "description": "cards in the packet: a count, never seen"},
                "state": {"type": "string", "enum": [IN, OUT, EXCLUDED]},
                "errors": {"type": "integer", "minimum": 0, "maximum": 3, "description": "false slaps while out"},
            },
        },
    },
}
SEAT_VIEW_SCHEMA: dict[str, dict[str, Any]] = {
    "legal_actions": {
        "type": "array",
        "items": {"type": "object", "properties": {"type": {"type": "string"}}},
        "description": "every action this seat may send now, in dict form without seat; a slap is listed whenever "
        "this seat may slap, valid or not",
    },
}
