"""The immutable state of The Game and its transitions (spec: "Setup", "A turn", "End of the game").

``State.apply`` and ``State.apply_all`` never mutate: they work on local copies of what changes
and build one new state at the end, so a whole turn costs one new state and a failing action
anywhere leaves the caller's state exactly as it was (all or nothing).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Literal, NamedTuple, NoReturn

from ...dealt import Recorded, TupleState, checked_deck, checked_first_seat
from ...errors import GameOver, IllegalAction, InvalidAction, NotYourTurn
from ...outcome import Outcome, Progress
from ...protocol import StateDefaults
from .actions import PILE_INDEX, Action, EndTurn, Play, Signal, shape_problem
from .hidden import hidden_deal
from .options import Options
from .rules import ASCENDING, BASES, CARDS_IN_DECK, accepts, can_place
from .views import Observation, SignalKey

GAME_NAME = "the-game"
FULL_DECK = tuple(range(2, 100))

#: Why a game ended, in the manner of python-chess's ``Termination``.
Reason = Literal["all_cards_placed", "minimum_unreachable", "no_legal_play"]
WON_ALL_PLACED: Reason = "all_cards_placed"
LOST_MINIMUM_UNREACHABLE: Reason = "minimum_unreachable"
LOST_NO_LEGAL_PLAY: Reason = "no_legal_play"


class _Fields(NamedTuple):
    """What a ``State`` holds, in a tuple: built in one step and immutable by construction."""

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
    outcome: Outcome[Reason] | None = None


class State(TupleState, _Fields, Progress, Recorded, StateDefaults):
    """One moment of a game of The Game. Frozen, hashable, equal by value; replays from its history.

    A named tuple underneath (five times cheaper to build than a frozen dataclass, and every
    turn of every simulated game builds one), but equal only to a state of the same class, and
    not ordered.
    """

    __slots__ = ()
    game: ClassVar[str] = GAME_NAME

    @classmethod
    def start(cls, options: Options, deck: Sequence[int], first_seat: int = 0) -> State:
        """Deal round robin from seat 0 (card ``d[i]`` goes to seat ``i mod players``) and start."""
        deck = checked_deck(deck, FULL_DECK, "the 98 cards 2..99 in draw order")
        players = options.players
        checked_first_seat(first_seat, players)
        dealt = players * options.hand_size
        hands = tuple(tuple(sorted(deck[seat:dealt:players])) for seat in range(players))
        required, outcome = _turn_start(options, hands[first_seat], BASES, dealt, first_seat)
        return cls(options, deck, first_seat, hands, dealt, BASES, first_seat, 0, required, (), (), outcome)

    # Derived facts -------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.options.players

    @property
    def draw_pile(self) -> int:
        return CARDS_IN_DECK - self.drawn

    @property
    def score(self) -> int:
        """Cards not placed: every hand plus the draw pile (a count, not a sum of values)."""
        return self.draw_pile + sum(map(len, self.hands))

    @property
    def turns(self) -> int:
        """Turns ended so far."""
        return sum(type(action) is EndTurn for action in self.history)

    @property
    def waiting_for(self) -> frozenset[int]:
        """The seat whose turn it is, while the game runs (empty once it is over)."""
        return frozenset() if self.outcome is not None else frozenset((self.current_seat,))

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the current seat) may send now: on its turn its legal plays and,
        when allowed, ``EndTurn``; at any time while the game runs, each signal that changes the table."""
        return self.observe(self.current_seat if seat is None else seat).legal_actions()

    def reaction_key(self, seat: int) -> list[dict[str, Any]]:
        """What a paced bot of ``seat`` reacts to (the service's clock restarts its wait when this changes): the
        plays and the end of turn it may send. Signals, which any seat may send at any time, are left out: another
        seat's signal gives it nothing new to do."""
        return [action.to_dict() for action in self.legal_actions(seat) if type(action) is not Signal]

    def asking_order(self) -> tuple[int, ...]:
        """Only the current seat's action moves the game on (signals are never needed)."""
        return tuple(self.waiting_for)

    # Transitions ---------------------------------------------------------------------------
    def apply(self, action: Action) -> State:
        """The state after ``action``; raises ``GameError`` (and changes nothing) if it is not allowed."""
        return self.apply_all((action,))

    def apply_all(self, actions: Iterable[Action]) -> State:
        """The state after every action in order, all or nothing (a whole turn in one step).

        One loop over local copies of what changes, then one new state: nothing of ``self``
        changes, so an action refused anywhere leaves the caller with the state it had. Plays and
        ends of turn, nearly every action of every simulated game, are applied inline, since a
        Python call costs about as much as a play. Each accepts an action in one condition;
        ``_refuse`` says what is wrong, in the contract's order.
        """
        options, deck, first_seat, held, drawn, piles, seat, placed, required, signals, history, outcome = self
        hands, tops, applied = list(held), list(piles), []
        for action in actions:
            if type(action) is Play and outcome is None:
                actor, card, pile_name = action
                hand = hands[seat]
                pile = PILE_INDEX.get(pile_name) if type(pile_name) is str else None
                if (
                    pile is None
                    or type(actor) is not int
                    or type(card) is not int
                    or actor != seat
                    or card not in hand
                    or not accepts(ASCENDING[pile], tops[pile], card)
                ):
                    _refuse(action, hands, tops, seat, placed, required, outcome)
                index = hand.index(card)
                hands[seat] = hand[:index] + hand[index + 1 :]
                tops[pile] = card
                placed += 1
                if drawn == CARDS_IN_DECK and not any(hands):
                    outcome = Outcome("won", WON_ALL_PLACED)
                elif placed < required:
                    outcome = _stuck(options, hands[seat], tops, required - placed, seat)
            elif type(action) is EndTurn and outcome is None:
                actor = action.seat
                # no "and hand": required <= the hand at turn start, so an emptied hand has placed enough
                if type(actor) is not int or actor != seat or placed < required:
                    _refuse(action, hands, tops, seat, placed, required, outcome)
                left = CARDS_IN_DECK - drawn
                count = placed if placed <= left else left  # not min(): a slow builtin on the hottest path
                if count:
                    hands[seat] = tuple(sorted(hands[seat] + deck[drawn : drawn + count]))
                    drawn += count
                seat = (seat + 1) % len(hands)
                while not hands[seat]:  # an empty hand is skipped; someone holds cards, or the game was won
                    seat = (seat + 1) % len(hands)
                placed = 0
                required, outcome = _turn_start(options, hands[seat], tops, drawn, seat)
            elif type(action) is Signal and outcome is None:
                signals = _signalled(signals, action, len(hands))
            else:
                _refuse(action, hands, tops, seat, placed, required, outcome)
            applied.append(action)
        hands_after, tops_after, history = tuple(hands), tuple(tops), history + tuple(applied)
        return State(
            options, deck, first_seat, hands_after, drawn, tops_after, seat, placed, required, signals, history, outcome
        )

    def resample(self, seat: int, rng: random.Random) -> State:
        """This state as ``seat`` may believe it to be: the other hands and the draw order dealt anew at random from
        the cards it has not seen (``hidden.hidden_deal``, from its observation alone); it observes the same."""
        hands, deck = hidden_deal(self.observe(seat), rng)
        return self._replace(hands=hands, deck=deck)

    # Views and logs ---------------------------------------------------------------------
    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` may see (``None``: a spectator). The only door to hidden information."""
        options, _, _, hands, drawn, tops, current, placed, required, signals, history, outcome = self
        hand = () if seat is None else hands[seat]
        sizes = tuple(map(len, hands))
        waiting = frozenset() if outcome is not None else frozenset((current,))
        return Observation(
            seat,
            options,
            current,
            waiting,
            history,
            outcome,
            hand,
            tops,
            CARDS_IN_DECK - drawn,
            sizes,
            placed,
            required,
            signals,
        )

    def view(self, seat: int) -> dict[str, Any]:
        """The seat view of the HTTP contract, as a JSON-ready dict."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}, got {seat!r}")
        return self.observe(seat).to_dict()

    def public_view(self) -> dict[str, Any]:
        """The spectator view: the seat view without any hand."""
        return self.observe(None).to_dict()


def _turn_start(
    options: Options, hand: Sequence[int], tops: Sequence[int], drawn: int, seat: int
) -> tuple[int, Outcome[Reason] | None]:
    """The turn's minimum, fixed now (spec: "A turn"), and the loss check at turn start."""
    minimum = options.min_per_turn if drawn < CARDS_IN_DECK else options.min_after_empty
    required = minimum if minimum <= len(hand) else len(hand)  # not min(): a slow builtin on a hot path
    return required, _stuck(options, hand, tops, required, seat)


def _stuck(options: Options, hand: Sequence[int], tops: Sequence[int], need: int, seat: int) -> Outcome[Reason] | None:
    """The loss if ``need`` more plays are out of reach (``strict``) or nothing is playable (``try``)."""
    if options.stuck_policy == "try":
        return None if need <= 0 or can_place(hand, tops, 1) else Outcome("lost", LOST_NO_LEGAL_PLAY, seat)
    return None if can_place(hand, tops, need) else Outcome("lost", LOST_MINIMUM_UNREACHABLE, seat)


def _signalled(signals: tuple[SignalKey, ...], action: Signal, players: int) -> tuple[SignalKey, ...]:
    """The signals on the table after ``action``, which must change them: set one not shown, or clear one
    shown (a repeat would only grow the game's history)."""
    problem = shape_problem(action, players)
    if problem is not None:
        raise InvalidAction(problem)
    key = (action.seat, action.pile, action.kind)
    if (key in signals) != action.clear:
        shown = "already shows" if key in signals else "does not show"
        raise IllegalAction(
            f"the table {shown} seat {action.seat}'s {action.kind} on {action.pile}", code="signal_unchanged"
        )
    others = tuple(signal for signal in signals if signal != key)
    return others if action.clear else tuple(sorted((*others, key)))


def _refuse(
    action: object,
    hands: Sequence[tuple[int, ...]],
    tops: Sequence[int],
    seat: int,
    placed: int,
    required: int,
    outcome: Outcome[Reason] | None,
) -> NoReturn:
    """Raise the first error, in the contract's order (game over, shape, turn, hand, rule), of an
    action that ``State.apply_all`` turned down, given the moment it came."""
    if outcome is not None:
        raise GameOver(f"the game is over ({outcome.status})")
    problem = shape_problem(action, len(hands))
    if problem is not None:
        raise InvalidAction(problem)
    assert isinstance(action, (Play, EndTurn)), "apply_all judges signals itself"
    if action.seat != seat:
        raise NotYourTurn(f"it is seat {seat}'s turn, not seat {action.seat}'s")
    if isinstance(action, EndTurn):
        missing = required - placed
        raise IllegalAction(f"place {missing} more card(s) before ending the turn", code="minimum_not_reached")
    card, pile = action.card, action.pile
    if card not in hands[seat]:
        raise IllegalAction(f"card {card} is not in seat {seat}'s hand", code="card_not_in_hand")
    raise IllegalAction(f"{card} cannot go on {pile} (top {tops[PILE_INDEX[pile]]})", code="illegal_play")
