"""What one seat, or a spectator, may see (spec: "Information and talk").

``Observation`` is the only object built from hidden state for a player: bots decide from it,
and the JSON views of the HTTP contract are its ``to_dict()``. It holds the seat's own hand,
public counts and the public history; never another hand, never the draw order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ...dealt import Seen
from . import rules
from .actions import HIGHEST_CARD, PILES, SIGNAL_KINDS, Action, EndTurn, Play, Signal
from .options import MAX_PLAYERS, Options

SignalKey = tuple[int, str, str]


@dataclass(slots=True)
class Observation(Seen):
    """One seat's (or a spectator's, ``seat=None``) knowledge of the game at one moment (``dealt.Seen``): its legal
    actions are worked out when asked, from its hand and the tops."""

    game: ClassVar[str] = "the-game"

    options: Options
    hand: tuple[int, ...]
    tops: tuple[int, ...]
    draw_pile: int
    hand_sizes: tuple[int, ...]
    placed_this_turn: int
    required_this_turn: int
    signals: tuple[SignalKey, ...]

    @property
    def score(self) -> int:
        return self.draw_pile + sum(self.hand_sizes)

    def legal_plays(self) -> list[Play]:
        """This seat's legal plays now (empty unless it is this seat's turn)."""
        if not self.my_turn or self.seat is None:
            return []
        return self.plays(rules.legal_plays(self.hand, self.tops))

    def can_end_turn(self) -> bool:
        return self.my_turn and (self.placed_this_turn >= self.required_this_turn or not self.hand)

    def plays(self, plan: Iterable[tuple[int, int]]) -> list[Play]:
        """This seat's ``Play`` actions for a plan of ``(card, pile index)`` pairs (for bots)."""
        assert self.seat is not None, "a spectator has no turn"
        plays = _PLAYS[self.seat]
        return [plays[card][pile] for card, pile in plan]

    def end_turn(self) -> EndTurn:
        """The ``EndTurn`` of this seat (for bots building their action lists)."""
        assert self.seat is not None, "a spectator has no turn"
        return _END_TURNS[self.seat]

    def turn_actions(self) -> list[Action]:
        """This seat's legal plays and, when allowed, ``EndTurn`` (empty unless it is this seat's turn)."""
        actions: list[Action] = list(self.legal_plays())
        if self.seat is not None and self.can_end_turn():
            actions.append(_END_TURNS[self.seat])
        return actions

    def signal_changes(self) -> list[Signal]:
        """The signals this seat may send now: each one that changes the table (set if unset, clear if set)."""
        seat = self.seat
        if seat is None or self.outcome is not None:
            return []
        mine = {(pile, kind) for signaller, pile, kind in self.signals if signaller == seat}
        return [Signal(seat, pile, kind, (pile, kind) in mine) for pile in PILES for kind in SIGNAL_KINDS]

    def legal_actions(self) -> list[Action]:
        """Every action this seat may send now: its turn's actions, then the signals that change the table."""
        return [*self.turn_actions(), *self.signal_changes()]

    def seats(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "hand_size": size} for seat, size in enumerate(self.hand_sizes)]

    def table(self) -> dict[str, Any]:
        return {
            "piles": [
                {"id": name, "direction": "up" if rules.ASCENDING[index] else "down", "top": self.tops[index]}
                for index, name in enumerate(PILES)
            ],
            "draw_pile": self.draw_pile,
            "placed_this_turn": self.placed_this_turn,
            "required_this_turn": self.required_this_turn,
            "signals": [{"seat": seat, "pile": pile, "kind": kind} for seat, pile, kind in self.signals],
            "score": self.score,
        }

    def own(self) -> dict[str, Any]:
        return {
            "hand": list(self.hand),
            "legal_plays": [{"card": play.card, "pile": play.pile} for play in self.legal_plays()],
            "can_end_turn": self.can_end_turn(),
        }


def observation_from_view(view: Mapping[str, Any], options: Options, history: tuple[Action, ...]) -> Observation:
    """The inverse of ``Observation.to_dict()``, given the resolved options and the history the view leaves out."""
    return Observation(
        **Seen.seen_in(view, options, history),
        hand=tuple(view.get("hand", ())),
        tops=tuple(pile["top"] for pile in view["piles"]),
        draw_pile=view["draw_pile"],
        hand_sizes=tuple(entry["hand_size"] for entry in view["seats"]),
        placed_this_turn=view["placed_this_turn"],
        required_this_turn=view["required_this_turn"],
        signals=tuple((signal["seat"], signal["pile"], signal["kind"]) for signal in view["signals"]),
    )


def lobby_view(options: Options) -> dict[str, Any]:
    """The table before the deal: the piles at their bases, every card still to draw, no hand."""
    players = options.players
    return Observation.lobby_view(
        options,
        hand=(),
        tops=rules.BASES,
        draw_pile=rules.CARDS_IN_DECK,
        hand_sizes=(0,) * players,
        placed_this_turn=0,
        required_this_turn=0,
        signals=(),
    )


# Every play of every seat, built once and shared (actions are immutable): bots and simulations
# ask for millions of them, and a lookup costs less than building one. Indexed [seat][card][pile].
_PLAYS = [
    [[Play(seat, card, pile) for pile in PILES] for card in range(HIGHEST_CARD + 1)] for seat in range(MAX_PLAYERS)
]
_END_TURNS = [EndTurn(seat) for seat in range(MAX_PLAYERS)]
