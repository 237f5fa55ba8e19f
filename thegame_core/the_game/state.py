"""The immutable state of The Game and its transitions (spec: "Setup", "A turn", "End of the game").

``State.apply`` and ``State.apply_all`` never mutate: they copy the state into a private mutable
``_Draft``, run every action through it and freeze the result, so a whole turn costs one new state
and a failing action anywhere leaves the caller's state exactly as it was (all or nothing).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn

from ..errors import IllegalAction, InvalidAction, InvalidSetup
from . import rules
from .actions import PILE_INDEX, Action, EndTurn, Play, Signal, is_card, is_seat, shape_problem
from .options import Options
from .views import Observation, Progress

GAME_NAME = "the-game"
FULL_DECK = tuple(range(2, 100))

#: Why a game ended, in the manner of python-chess's ``Termination``.
WON_ALL_PLACED = "all_cards_placed"
LOST_MINIMUM_UNREACHABLE = "minimum_unreachable"
LOST_NO_LEGAL_PLAY = "no_legal_play"

SignalKey = tuple[int, str, str]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: ``status`` is ``"won"`` or ``"lost"``; ``seat`` is who was stuck."""

    status: str
    reason: str
    seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "seat": self.seat}


def shuffled_deck(seed: int) -> tuple[int, ...]:
    """The draw order for ``seed``: the same on every machine and Python version."""
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def check_deck(deck: Any) -> tuple[int, ...]:
    """``deck`` as a tuple if it is a permutation of 2..99; ``InvalidSetup`` otherwise."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
        raise InvalidSetup("deck must be a list of the 98 cards 2..99 in draw order")
    cards = tuple(deck)
    if any(isinstance(card, bool) or not isinstance(card, int) for card in cards) or sorted(cards) != list(FULL_DECK):
        raise InvalidSetup("deck must hold each card from 2 to 99 exactly once")
    return cards


@dataclass(frozen=True, slots=True)
class State(Progress):
    """One moment of a game of The Game. Frozen, hashable, comparable; replays from its history."""

    game: ClassVar[str] = GAME_NAME

    options: Options
    deck: tuple[int, ...]
    first_seat: int
    hands: tuple[tuple[int, ...], ...]
    drawn: int
    tops: tuple[int, ...]
    current_seat: int
    placed_this_turn: int
    required_this_turn: int
    signals: tuple[SignalKey, ...]
    history: tuple[Action, ...]
    outcome: Outcome | None = None

    @classmethod
    def start(cls, options: Options, deck: Sequence[int], first_seat: int = 0) -> State:
        """Deal round robin from seat 0 (card ``d[i]`` goes to seat ``i mod players``) and start."""
        deck = check_deck(deck)
        players = options.players
        if isinstance(first_seat, bool) or not isinstance(first_seat, int) or not 0 <= first_seat < players:
            raise InvalidSetup(f"first_seat must be from 0 to {players - 1}, got {first_seat!r}")
        dealt = players * options.hand_size
        hands = tuple(tuple(sorted(deck[seat:dealt:players])) for seat in range(players))
        draft = _Draft(cls(options, deck, first_seat, hands, dealt, rules.BASES, first_seat, 0, 0, (), ()))
        draft.start_turn(first_seat)
        return draft.freeze()

    # Derived facts -------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.options.players

    @property
    def draw_pile(self) -> int:
        return rules.CARDS_IN_DECK - self.drawn

    @property
    def score(self) -> int:
        """Cards not placed: every hand plus the draw pile (a count, not a sum of values)."""
        return self.draw_pile + sum(map(len, self.hands))

    def legal_actions(self) -> list[Action]:
        """Every legal play and, when allowed, ``EndTurn`` of the current seat (signals excluded)."""
        return self.observe(self.current_seat).legal_actions()

    # Transitions ---------------------------------------------------------------------------
    def apply(self, action: Action) -> State:
        """The state after ``action``; raises ``GameError`` (and changes nothing) if it is not allowed."""
        return self.apply_all((action,))

    def apply_all(self, actions: Iterable[Action]) -> State:
        """The state after every action in order, all or nothing (a whole turn in one step)."""
        draft = _Draft(self)
        for action in actions:
            draft.step(action)
        return draft.freeze()

    # Views and logs ---------------------------------------------------------------------
    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` may see (``None``: a spectator). The only door to hidden information."""
        return Observation.of(self, seat)

    def view(self, seat: int) -> dict[str, Any]:
        """The seat view of the HTTP contract, as a JSON-ready dict."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}, got {seat!r}")
        return self.observe(seat).to_dict()

    def public_view(self) -> dict[str, Any]:
        """The spectator view: the seat view without any hand."""
        return self.observe(None).to_dict()

    def public_log(self) -> list[dict[str, Any]]:
        """Every action so far; none carries hidden information (draws are counts, never cards)."""
        return [action.to_dict() for action in self.history]

    def replay_record(self) -> dict[str, Any]:
        """Setup plus actions: ``thegame_core.replay(record)`` rebuilds this exact state."""
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options.to_dict(),
            "deck": list(self.deck),
            "first_seat": self.first_seat,
            "actions": self.public_log(),
        }


class _Draft:
    """A mutable working copy of a ``State``; lives only inside one ``apply_all`` call."""

    __slots__ = ("base", "drawn", "hands", "history", "outcome", "placed", "required", "seat", "signals", "tops")

    def __init__(self, state: State) -> None:
        self.base = state
        self.hands = list(state.hands)
        self.drawn = state.drawn
        self.tops = list(state.tops)
        self.seat = state.current_seat
        self.placed = state.placed_this_turn
        self.required = state.required_this_turn
        self.signals = state.signals
        self.history: list[Action] = []
        self.outcome = state.outcome

    def freeze(self) -> State:
        base = self.base
        return State(
            base.options,
            base.deck,
            base.first_seat,
            tuple(self.hands),
            self.drawn,
            tuple(self.tops),
            self.seat,
            self.placed,
            self.required,
            self.signals,
            base.history + tuple(self.history),
            self.outcome,
        )

    def step(self, action: Action) -> None:
        """Check ``action`` in the contract's order (game over, shape, turn, hand, rule), then apply it.

        Each kind checks its own shape inline: this runs for every action of every simulated game.
        """
        if self.outcome is not None:
            raise IllegalAction(f"the game is over ({self.outcome.status})", code="game_over")
        if type(action) is Play:
            self.play(action)
        elif type(action) is EndTurn:
            self.end_turn(action)
        elif type(action) is Signal:
            self.signal(action)
        else:
            self.reject(action)
        self.history.append(action)

    def reject(self, action: object) -> NoReturn:
        raise InvalidAction(shape_problem(action, len(self.hands)) or f"not an action of The Game: {action!r}")

    def check_turn(self, seat: int) -> None:
        if seat != self.seat:
            raise IllegalAction(f"it is seat {self.seat}'s turn, not seat {seat}'s", code="not_your_turn")

    def play(self, action: Play) -> None:
        seat, card, pile_name = action
        if not (is_card(card) and pile_name in PILE_INDEX and is_seat(seat, len(self.hands))):
            self.reject(action)
        self.check_turn(seat)
        hand = self.hands[seat]
        try:
            index = hand.index(card)
        except ValueError:
            raise IllegalAction(f"card {card} is not in seat {seat}'s hand", code="card_not_in_hand") from None
        pile = PILE_INDEX[pile_name]
        if not rules.accepts(rules.ASCENDING[pile], self.tops[pile], card):
            raise IllegalAction(f"{card} cannot go on {pile_name} (top {self.tops[pile]})", code="illegal_play")
        self.hands[seat] = hand[:index] + hand[index + 1 :]
        self.tops[pile] = card
        self.placed += 1
        if self.drawn == rules.CARDS_IN_DECK and not any(self.hands):
            self.outcome = Outcome("won", WON_ALL_PLACED)
        elif self.placed < self.required:
            self.check_stuck()

    def end_turn(self, action: EndTurn) -> None:
        if not is_seat(action.seat, len(self.hands)):
            self.reject(action)
        self.check_turn(action.seat)
        hand = self.hands[self.seat]
        if self.placed < self.required and hand:
            raise IllegalAction(
                f"place {self.required - self.placed} more card(s) before ending the turn", code="minimum_not_reached"
            )
        drawn = min(self.placed, rules.CARDS_IN_DECK - self.drawn)
        if drawn:
            self.hands[self.seat] = tuple(sorted(hand + self.base.deck[self.drawn : self.drawn + drawn]))
            self.drawn += drawn
        players = len(self.hands)
        seat = (self.seat + 1) % players
        while not self.hands[seat]:  # an empty hand is skipped; someone holds cards, or the game was won
            seat = (seat + 1) % players
        self.start_turn(seat)

    def start_turn(self, seat: int) -> None:
        """Fix the turn's minimum (spec: "A turn") and apply the loss check at turn start."""
        options = self.base.options
        minimum = options.min_per_turn if self.drawn < rules.CARDS_IN_DECK else options.min_after_empty
        self.seat = seat
        self.placed = 0
        self.required = min(minimum, len(self.hands[seat]))
        self.check_stuck()

    def check_stuck(self) -> None:
        """Lose when the minimum can no longer be reached (``strict``) or nothing is playable (``try``)."""
        hand = self.hands[self.seat]
        if self.base.options.stuck_policy == "try":
            if not rules.can_place(hand, self.tops, min(1, self.required - self.placed)):
                self.outcome = Outcome("lost", LOST_NO_LEGAL_PLAY, self.seat)
        elif not rules.can_place(hand, self.tops, self.required - self.placed):
            self.outcome = Outcome("lost", LOST_MINIMUM_UNREACHABLE, self.seat)

    def signal(self, action: Signal) -> None:
        if shape_problem(action, len(self.hands)) is not None:
            self.reject(action)
        key = (action.seat, action.pile, action.kind)
        others = tuple(signal for signal in self.signals if signal != key)
        self.signals = others if action.clear else tuple(sorted((*others, key)))
