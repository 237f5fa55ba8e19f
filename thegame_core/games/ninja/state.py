"""The immutable state of Ninja: the deal (N4), the protocol's questions (who is waited for, what
may be sent) and the views; the transitions themselves are the rules' (``engine``), taken faster
for the common actions (``fast_path``)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ...dealt import Recorded, TupleState, checked_first_seat, checked_seat
from ...outcome import Progress
from ...protocol import StateDefaults
from .actions import Action
from .cards import CARDS_IN_DECK, check_deck, deal
from .fast_path import advance, step
from .fields import SWAP, Fields, questions
from .hidden import hidden_deal
from .legal import asking_order, legal_actions
from .options import Options
from .rules import reference
from .views import GAME_NAME, Observation, SeenGive, SeenWindow


class State(TupleState, Fields, Progress, Recorded, StateDefaults):
    """One moment of a game of Ninja. Frozen, hashable, equal by value; replays from its history.

    A named tuple underneath (cheap to build: every action builds one), equal only to a state of
    the same class, and not ordered.
    """

    __slots__ = ()
    game: ClassVar[str] = GAME_NAME

    @classmethod
    def start(cls, options: Options, deck: Sequence[int], first_seat: int = 0) -> State:
        """Deal ``deck`` from ``first_seat`` (N4) and open the swap phase."""
        cards = check_deck(deck)
        players = options.players
        checked_first_seat(first_seat, players)
        face_down, face_up, hands, dealt = deal(cards, players, first_seat)
        ready = (False,) * players
        status, waiting_for, asking = questions(options, SWAP, first_seat, ready, None, None)
        return cls(
            options=options,
            deck=cards,
            first_seat=first_seat,
            hands=hands,
            face_up=face_up,
            face_down=face_down,
            drawn=dealt,
            pile=(),
            burned=0,
            last_layer=None,
            phase=SWAP,
            turn=first_seat,
            ready=ready,
            give=None,
            window=None,
            pending=None,
            turns=0,
            out=(),
            history=(),
            outcome=None,
            status=status,
            waiting_for=waiting_for,
            asking=asking,
        )

    # The protocol's questions -----------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.options.players

    @property
    def current_seat(self) -> int | None:
        """The seat whose single action the game needs (Settled details); None once over."""
        return None if self.outcome is not None else self.turn

    @property
    def ref(self) -> int | None:
        """The card to beat (N5), or None."""
        return reference(self.pile, self.options)

    @property
    def stock(self) -> int:
        return CARDS_IN_DECK - self.drawn

    #: Every action ``seat`` may send now, out-of-turn completions, counters and NINJA included
    #: (``legal.legal_actions`` itself: one call less on the hottest path).
    legal_actions = legal_actions

    def asking_order(self) -> tuple[int, ...]:
        """Seats in the order a referee offers them a chance to act (``legal.asking_order``): most
        states know it from the turn alone (``asking``)."""
        asking = self.asking
        return asking_order(self) if asking is None else asking

    # Transitions --------------------------------------------------------------------------------
    #: The state after ``action``; raises ``GameError`` (and changes nothing) if it is refused
    #: (``fast_path.step`` itself, which is ``engine.step``'s rules: one call less on the hottest path).
    apply = step
    #: The state after every action in order, all or nothing (``fast_path.advance`` itself).
    apply_all = advance

    def resample(self, seat: int, rng: random.Random) -> State:
        """This state as ``seat`` may believe it to be: the other hands, the face-down cards and the stock dealt anew
        at random, consistently with what it has seen since the deal (``hidden.hidden_deal``, from its observations at
        the deal and now); it observes the same."""
        first = State.start(self.options, self.deck, self.first_seat).observe(seat)
        hands, face_down, deck = hidden_deal(first, self.observe(seat), rng)
        return self._replace(hands=hands, face_down=face_down, deck=deck)

    # Views and logs -----------------------------------------------------------------------------
    def _seat(self, seat: Any) -> int:
        return checked_seat(seat, self.players)

    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` may see (``None``: a spectator). The only door to hidden information."""
        options, hands, pile, give, window, outcome = (
            self.options,
            self.hands,
            self.pile,
            self.give,
            self.window,
            self.outcome,
        )
        hand: tuple[int, ...] = ()
        legal: tuple[Action, ...] = ()
        if seat is not None:
            legal = tuple(legal_actions(self, seat))  # checks the seat
            hand = hands[seat]
        return Observation(
            seat=seat,
            options=options,
            current_seat=None if outcome is not None else self.turn,
            waiting_for=self.waiting_for,
            history=self.history,
            outcome=outcome,
            hand=hand,
            phase=self.phase,
            pile=pile,
            ref=reference(pile, options),
            stock=CARDS_IN_DECK - self.drawn,
            burned=self.burned,
            give=None if give is None else SeenGive(give.giver, give.target),
            completion=None if window is None else SeenWindow(window.value, window.placed_by),
            hand_sizes=tuple(map(len, hands)),
            face_up=self.face_up,
            face_down=tuple(map(len, self.face_down)),
            ready=self.ready,
            legal=legal,
        )

    def view(self, seat: int) -> dict[str, Any]:
        """The seat view of the HTTP contract, as a JSON-ready dict."""
        return self.observe(self._seat(seat)).to_dict()

    def public_view(self) -> dict[str, Any]:
        """The spectator view: the seat view without a hand or legal actions."""
        return self.observe(None).to_dict()
