"""The immutable state of Bataille corse: the deal (C3), the protocol's questions (who is waited for, who may
slap), the views; the transitions themselves are in ``engine``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from ...dealt import Recorded, TupleState, checked_first_seat, checked_seat
from ...outcome import Progress
from ...protocol import StateDefaults, Timer
from .actions import FALSE, FLIPS, STALE, VALID, Action, Flip, Judge, Slap
from .cards import check_deck, deal
from .engine import MAX_ERRORS, advance, is_gathered, may_slap, step
from .fields import Fields
from .hidden import hidden_deal
from .options import Options
from .views import EXCLUDED, GAME_NAME, IN, OUT, Observation


class State(TupleState, Fields, Progress, Recorded, StateDefaults):
    """One moment of a game of Bataille corse. Frozen, hashable, equal by value; replays from its history."""

    __slots__ = ()
    game: ClassVar[str] = GAME_NAME

    @classmethod
    def start(cls, options: Options, deck: Sequence[str], first_seat: int = 0) -> State:
        """Deal ``deck`` one card at a time clockwise from ``first_seat``, who flips first (C3)."""
        cards = check_deck(deck, options.jokers)
        players = options.players
        checked_first_seat(first_seat, players)
        return cls(
            options=options,
            deck=cards,
            first_seat=first_seat,
            packets=deal(cards, players, first_seat),
            pile=(),
            penalty=(),
            pile_version=0,
            challenge=None,
            current=first_seat,
            last_flipper=None,
            errors=(0,) * players,
            blocked=0,
            excluded=(),
            ins=(1 << players) - 1,
            out_at=(-1,) * players,
            flips=0,
            won_by=(0, 0, 0),
            window=None,
            history=(),
            outcome=None,
        )

    # The protocol's questions -------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.options.players

    @property
    def current_seat(self) -> int | None:
        """The seat to flip; None once over, and while a collection window is open (nobody flips then)."""
        return None if self.outcome is not None or self.window is not None else self.current

    @property
    def waiting_for(self) -> frozenset[int]:
        """The seat to flip; nobody while a window is open: the game waits for its timer (``timer``)."""
        return frozenset() if self.outcome is not None or self.window is not None else frozenset((self.current,))

    def timer(self) -> Timer | None:
        """The open window's close: when (ms, on the clock of the slaps' ``at``) and the referee's ``Judge``."""
        if self.window is None:
            return None
        closes, gathered = self.window
        return Timer(closes, Judge(min(gathered, key=lambda slap: slap[0])[1]))

    @property
    def turns(self) -> int:
        """Flips so far."""
        return self.flips

    def may_slap(self, seat: int) -> bool:
        """C6: the pile is not empty, and the seat is IN, or OUT with fewer than 3 errors and none on this pile."""
        return bool(self.pile) and may_slap(seat, self.ins, self.errors, self.blocked)

    def slap_is_legal(self, seat: int) -> bool:
        """Whether ``seat`` may slap the current version, the game not over: ``may_slap``, and its slap not already
        gathered in the open window (one per seat)."""
        return self.may_slap(seat) and not is_gathered(self.window, seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """The flip of the seat on turn, and a slap on the current pile version for any seat that may slap."""
        if self.outcome is not None:
            return []
        actions: list[Action] = [FLIPS[seat]] if seat == self.current and self.window is None else []
        if self.slap_is_legal(seat):
            actions.append(Slap(seat, self.pile_version))
        return actions

    def reaction_key(self, seat: int) -> tuple[int, bool]:
        """What a paced bot of ``seat`` reacts to (the service's clock restarts its wait when this changes): the
        pile as it was last changed (its version) and whether the seat is to flip. A stale slap changes neither,
        so nobody can hold a bot back with late slaps; a new card on the pile restarts every wait."""
        return self.pile_version, seat == self.current

    def asking_order(self) -> tuple[int, ...]:
        """The seats that may act, clockwise from the one after the seat on turn, which comes last: a slap has no
        priority (a referee races them), so this order only says who is asked."""
        if self.outcome is not None:
            return ()
        players, current = self.players, self.current
        seats = [(current + step) % players for step in range(1, players + 1)]
        if self.window is not None:
            return tuple(seat for seat in seats if self.slap_is_legal(seat))
        return tuple(seat for seat in seats if seat == current or self.may_slap(seat))

    def seat_states(self) -> tuple[str, ...]:
        """Each seat's ``"in"``, ``"out"`` or ``"excluded"``."""
        ins, errors = self.ins, self.errors
        return tuple(
            EXCLUDED if errors[seat] >= MAX_ERRORS else IN if ins >> seat & 1 else OUT for seat in range(self.players)
        )

    def results(self, count: int) -> list[str | None]:
        """What each of the last ``count`` actions did, oldest first: a slap's ``"valid"``, ``"false"`` or
        ``"stale"`` (``"pending"`` in a window: its ``Judge`` tells); ``None`` for a flip or a judge. The log's
        entries carry the same words (``"result"``)."""
        return [action.result if type(action) is Slap else None for action in self.history[-count:]] if count else []

    def stats(self) -> dict[str, int]:
        """What the simulator adds up: how piles were won, and how slaps turned out."""
        slaps = Counter(action.result for action in self.history if type(action) is Slap)
        slaps.update(result for action in self.history if type(action) is Judge for _, result in action.results)
        by_slap, by_challenge, other = self.won_by
        return {
            "piles won:by slap": by_slap,
            "piles won:by challenge": by_challenge,
            "piles won:otherwise": other,
            "slaps:valid": slaps[VALID],
            "slaps:false": slaps[FALSE],
            "slaps:stale": slaps[STALE],
        }

    def estimate(self, seat: int) -> float:
        """The seat's share of the cards held in packets (1 / players when nobody holds one): who holds every card
        wins (C10), and a game cut at ``max_flips`` ranks by cards held. An analysis's playout cut short counts
        this as the seat's chance to win."""
        held = sum(map(len, self.packets))
        return len(self.packets[seat]) / held if held else 1 / self.players

    # Transitions ----------------------------------------------------------------------------------
    #: The state after ``action``; raises ``GameError`` (and changes nothing) if it is refused.
    apply = step
    #: The state after every action in order, all or nothing.
    apply_all = advance

    def resample(self, seat: int, rng: random.Random) -> State:
        """This state as ``seat`` may believe it to be: the packets and the penalty cards dealt anew at random from
        the cards not on the pile (``hidden.hidden_deal``, from its observation alone); it observes the same."""
        packets, penalty, deck = hidden_deal(self.observe(seat), rng)
        return self._replace(packets=packets, penalty=penalty, deck=deck)

    # Views and logs -------------------------------------------------------------------------------
    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` may see (``None``: a spectator). The only door to hidden information."""
        if seat is not None:
            checked_seat(seat, self.players)
        return Observation(
            seat,
            self.options,
            self.current_seat,
            self.waiting_for,
            self.history,
            self.outcome,
            self.pile,
            len(self.penalty),
            self.pile_version,
            self.challenge,
            self.flips,
            tuple(map(len, self.packets)),
            self.seat_states(),
            self.errors,
            None if self.window is None else (self.window[0], tuple(seat for _, seat in self.window[1])),
            () if seat is None else tuple(self.legal_actions(seat)),
            self.last_slap(),
        )

    def last_slap(self) -> tuple[int, str, tuple[str, ...]] | None:
        """The last slap judged since the last flip, for the views: one applied valid or false, or the decisive one
        of a judge (the valid one, else the earliest received). Stale and gathered slaps are passed over: a stale
        slap changes no view but for the version."""
        for action in reversed(self.history):
            if isinstance(action, Flip):
                return None
            if isinstance(action, Slap) and action.result in (VALID, FALSE):
                return action.seat, str(action.result), action.combinations
            if isinstance(action, Judge) and action.results[0][1] != STALE:
                seat, result = next((judged for judged in action.results if judged[1] == VALID), action.results[0])
                return seat, result, action.combinations
        return None

    def view(self, seat: int) -> dict[str, Any]:
        """The seat view of the HTTP contract, as a JSON-ready dict."""
        return self.observe(seat).to_dict()

    def public_view(self) -> dict[str, Any]:
        """The spectator view: no legal actions."""
        return self.observe(None).to_dict()


__all__ = ["Fields", "Flip", "Slap", "State"]
