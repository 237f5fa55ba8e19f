"""Bataille corse's transitions (C5-C10) on ``Table``, a mutable scratch copy of a state's fields.

``advance(state, actions)`` loads one table, applies every action to it in order and builds one new state at the
end, so a batch is all or nothing by construction: an error leaves the caller's state untouched. Each action is
checked in the contract's order (game over, shape, turn or pile version, then the rules), then played; after it,
``settle`` applies what follows by itself (a payer with nothing left to borrow, a seat on turn without cards, the
degenerate end, a lone seat's collect) and ``track`` notes the seats that went OUT, for the ranking.

**The collection window** (``slap_window_ms`` above 0): a slap that would be judged is gathered instead (``gather``:
``"pending"``, with its receive time ``at``), the first one opening a window that closes ``slap_window_ms`` after
it (``window``: its closing time and the gathered (at, seat), in the order applied). Nothing flips meanwhile; each
seat slaps once. The referee's ``Judge``, when the window closes, judges them as a window of 0 would have, in the
order received (ties: the order applied): the first valid one collects, the others are then stale.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ...errors import GameOver, IllegalAction, InvalidAction, NotYourTurn
from ...outcome import Outcome
from .actions import FALSE, FLIPS, PENDING, STALE, VALID, Action, Flip, Judge, Slap
from .cards import TRIES
from .fields import Fields, Reason, Window, read_fields
from .options import Options
from .rules import combinations, slappable

S = TypeVar("S", bound=Fields)
#: How a pile was won (``State.won_by`` counts each): a valid slap, a challenge, or the rest (a lone seat's
#: collect, the degenerate end).
BY_SLAP, BY_CHALLENGE, BY_OTHER = 0, 1, 2
MAX_ERRORS = 3  # C8: the third error excludes a seat for good

ERRORS = {
    "empty_pile": "a slap on the current pile version while the pile is empty: there is nothing to slap",
    "cannot_slap": "this seat may not slap now: excluded after 3 errors, or out with an error on this pile already",
    "slap_window_open": "slaps on the pile are being gathered (slap_window_ms): nobody flips until they are judged",
    "already_slapped": "this seat's slap is already gathered in the open window: one slap per seat per window",
}
OUTCOME_REASONS: dict[str, str] = {
    "all_cards": "one seat holds every card",
    "flip_limit": "max_flips flips were made; ranking by cards held",
}


def may_slap(seat: int, ins: int, errors: tuple[int, ...], blocked: int) -> bool:
    """C6: any IN seat; an OUT seat with fewer than 3 errors and none on this pile (``ins``, ``blocked``: a bit per
    seat)."""
    return bool(ins >> seat & 1) or (errors[seat] < MAX_ERRORS and not blocked >> seat & 1)


def is_gathered(window: Window | None, seat: int) -> bool:
    """Whether ``seat``'s slap is gathered in the open ``window``: it may not slap again until the judge."""
    return window is not None and any(slapper == seat for _, slapper in window[1])


class Table:
    """A state's fields (``fields.Fields``), changed while a batch of actions is applied: the actions it adds wait in
    ``added``, and the rest are attributes of the same names, read back by name into the new state."""

    __slots__ = (*Fields._fields, "added", "end")
    options: Options
    deck: tuple[str, ...]
    first_seat: int
    packets: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    penalty: tuple[int, ...]
    pile_version: int
    challenge: tuple[int, int, int] | None
    current: int
    last_flipper: int | None
    errors: tuple[int, ...]
    blocked: int
    excluded: tuple[int, ...]
    ins: int
    out_at: tuple[int, ...]
    flips: int
    won_by: tuple[int, int, int]
    window: Window | None
    history: tuple[Action, ...]
    outcome: Outcome[Reason] | None

    def __init__(self, state: Fields) -> None:
        self.options, self.deck, self.first_seat = state.options, state.deck, state.first_seat
        self.packets, self.pile, self.penalty = state.packets, state.pile, state.penalty
        self.pile_version, self.challenge, self.current = state.pile_version, state.challenge, state.current
        self.last_flipper, self.errors, self.blocked = state.last_flipper, state.errors, state.blocked
        self.excluded, self.ins, self.out_at, self.flips = state.excluded, state.ins, state.out_at, state.flips
        self.won_by, self.window, self.history, self.outcome = state.won_by, state.window, state.history, state.outcome
        self.added: list[Flip | Slap | Judge] = []
        self.end: Reason | None = None

    def state(self, cls: type[S]) -> S:
        """The state of class ``cls`` holding this table's fields, read by name (``read_fields``), with the actions
        added: the table is spent."""
        self.history += tuple(self.added)
        self.added = []
        return tuple.__new__(cls, read_fields(self))

    # One action ----------------------------------------------------------------------------------
    def act(self, action: Any) -> None:
        if self.outcome is not None:
            raise GameOver("the game is over")
        kind = type(action)
        seat = action.seat if kind is Flip or kind is Slap or kind is Judge else None
        players = self.options.players
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidAction(f"not an action of this game of {players} seats: {action!r}")
        if kind is Judge:
            self.judge()
        elif kind is Flip:
            if seat != self.current:
                raise NotYourTurn(f"it is seat {self.current}'s turn to flip")
            if self.window is not None:
                message = "slaps on this pile are being gathered: flip once they are judged"
                raise IllegalAction(message, code="slap_window_open")
            self.flip(seat)
            self.added.append(FLIPS[seat])
        else:
            seen, version = action.pile_version, self.pile_version
            if type(seen) is not int or not 0 <= seen <= version:
                raise InvalidAction(f"pile_version must be an integer from 0 to {version}, got {seen!r}")
            if seen < version:  # a slower slap: a no-op before any other check
                self.added.append(Slap(seat, seen, STALE, version - seen))
                return
            if not self.pile:
                raise IllegalAction("the pile is empty", code="empty_pile")
            if not self.may_slap(seat):
                raise IllegalAction(f"seat {seat} may not slap now", code="cannot_slap")
            if self.options.slap_window_ms:
                self.gather(seat, seen, action.at)
                return
            result, held = self.judge_slap(seat)
            self.added.append(Slap(seat, seen, result, combinations=held))
        self.track()

    def judge_slap(self, seat: int) -> tuple[str, tuple[str, ...]]:
        """C6 for a slap on the current version by a seat that may slap: valid (it collects; with the combinations
        that held) or false (it pays)."""
        if slappable(self.pile, self.options):
            held = tuple(combinations(self.pile, self.options))
            self.collect(seat, BY_SLAP)
            return VALID, held
        self.pay(seat)
        return FALSE, ()

    # The collection window -------------------------------------------------------------------
    def gather(self, seat: int, seen: int, at: Any) -> None:
        """A slap on the current version, kept for the window's judge (see the module's docstring)."""
        if type(at) is not int or at < 0:
            raise InvalidAction("with slap_window_ms, a slap carries its receive time: at, in ms (the referee's)")
        gathered: tuple[tuple[int, int], ...] = ()
        if self.window is None:
            closes = at + self.options.slap_window_ms
        else:
            closes, gathered = self.window
            if at >= closes:
                raise InvalidAction(f"the slap window closed at {closes}: judge it before a slap received at {at}")
            if is_gathered(self.window, seat):
                raise IllegalAction(f"seat {seat}'s slap on this pile is already gathered", code="already_slapped")
        self.window = (closes, (*gathered, (at, seat)))
        self.added.append(Slap(seat, seen, PENDING, 0, at))

    def judge(self) -> None:
        """The window closes: its slaps judged in the order received, as they would have been without a window."""
        if self.window is None:
            raise InvalidAction("no slap window is open: there is nothing to judge")
        _, gathered = self.window
        self.window = None
        version = self.pile_version
        results: list[tuple[int, str]] = []
        won: tuple[str, ...] = ()
        for _, seat in sorted(gathered, key=lambda slap: slap[0]):  # stable: equal times in the order applied
            if self.pile_version != version:
                results.append((seat, STALE))
                continue
            result, held = self.judge_slap(seat)
            results.append((seat, result))
            won = won or held
        self.added.append(Judge(results[0][0], tuple(results), won))
        self.track()

    def may_slap(self, seat: int) -> bool:
        return may_slap(seat, self.ins, self.errors, self.blocked)

    def next_with_cards(self, after: int, skip: int | None = None) -> int | None:
        """The next seat clockwise after ``after`` (never ``after`` itself nor ``skip``) that holds cards."""
        players, packets = self.options.players, self.packets
        for step in range(1, players):
            seat = (after + step) % players
            if packets[seat] and seat != skip:
                return seat
        return None

    # The rules -----------------------------------------------------------------------------------
    def flip(self, seat: int) -> None:
        """C5: the card from the seat's packet (or, for a payer without cards, borrowed) onto the pile."""
        packets = self.packets
        source = seat if packets[seat] else self.next_with_cards(seat)
        assert source is not None  # settle leaves a borrowing payer a lender, or resolves the challenge
        packet = packets[source]
        card = packet[0]
        self.packets = _put(packets, source, packet[1:])
        self.pile += (card,)
        self.pile_version += 1
        self.flips += 1
        self.last_flipper = seat
        tries = TRIES[card >> 2]
        if tries:
            payer = self.next_with_cards(seat)
            if payer is None:  # nobody can pay: the seat collects at once
                self.collect(seat, BY_CHALLENGE)
            else:
                self.challenge = (seat, payer, tries)
                self.current = payer
        elif self.challenge is not None:  # the seat is the payer
            challenger, payer, attempts = self.challenge
            if attempts == 1:
                self.collect(challenger, BY_CHALLENGE)
            else:
                self.challenge = (challenger, payer, attempts - 1)
        else:
            following = self.next_with_cards(seat)
            self.current = seat if following is None else following
        self.settle()
        if self.outcome is None and self.end is None and self.flips >= self.options.max_flips:
            self.end = "flip_limit"

    def pay(self, seat: int) -> None:
        """C8: a false slap. An IN seat pays up to ``penalty_count`` cards from its packet; an OUT seat records an
        error (the third excludes it) and may not slap again before this pile is collected."""
        if self.ins >> seat & 1:
            packet = self.packets[seat]
            count = min(self.options.penalty_count, len(packet))
            if count:
                self.packets = _put(self.packets, seat, packet[count:])
                if self.options.penalty_place == "bottom":
                    self.penalty += packet[:count]
                else:
                    self.pile += packet[:count]
                    self.pile_version += 1
        else:
            errors = list(self.errors)
            errors[seat] += 1
            self.errors = tuple(errors)
            self.blocked |= 1 << seat
            if errors[seat] == MAX_ERRORS:
                self.excluded += (seat,)
        self.settle()

    def collect(self, seat: int, how: int) -> None:
        """C7: the penalty cards, then the pile as played, go under the seat's packet; it flips next."""
        self.packets = _put(self.packets, seat, self.packets[seat] + self.penalty + self.pile)
        self.pile, self.penalty, self.challenge, self.blocked = (), (), None, 0
        self.pile_version += 1
        self.current = seat
        by_slap, by_challenge, other = self.won_by
        self.won_by = (by_slap + (how == BY_SLAP), by_challenge + (how == BY_CHALLENGE), other + (how == BY_OTHER))
        if len(self.packets[seat]) == self.options.cards:
            self.end = "all_cards"

    def settle(self) -> None:
        """What follows by itself once the cards moved (C5.1, C9, C10, settled details)."""
        if self.end is not None:
            return
        packets = self.packets
        if self.challenge is not None:
            challenger, payer, attempts = self.challenge
            if packets[payer]:
                return
            if self.options.exhausted_payer == "borrow":
                if not any(packets):  # nobody has a card to lend
                    self.collect(challenger, BY_CHALLENGE)
                return
            heir = self.next_with_cards(payer, skip=challenger)
            if heir is None:
                self.collect(challenger, BY_CHALLENGE)
            else:
                self.challenge = (challenger, heir, attempts)
                self.current = heir
            return
        if not self.pile:
            return
        holders = [seat for seat, packet in enumerate(packets) if packet]
        if not holders:  # the degenerate end: the last seat that flipped collects
            assert self.last_flipper is not None  # a pile means someone flipped
            self.collect(self.last_flipper, BY_OTHER)
        elif len(holders) == 1 and self.options.lone_player_auto_collect:
            self.collect(holders[0], BY_OTHER)
        elif not packets[self.current]:  # the seat on turn paid its last cards
            self.current = next((seat for seat in holders if seat > self.current), holders[0])  # clockwise

    def track(self) -> None:
        """Note the seats that went OUT in this action (their version, for the ranking), and end the game."""
        ins = 0
        for seat, packet in enumerate(self.packets):
            if packet:
                ins |= 1 << seat
        if self.challenge is not None:
            ins |= 1 << self.challenge[0] | 1 << self.challenge[1]
        gone = self.ins & ~ins
        if gone:
            version = len(self.history) + len(self.added)
            self.out_at = tuple(version if gone >> seat & 1 else at for seat, at in enumerate(self.out_at))
        self.ins = ins
        if self.end is not None:
            self.outcome = outcome(self, self.end)


def _put(packets: tuple[tuple[int, ...], ...], seat: int, packet: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``packets`` with seat ``seat``'s replaced by ``packet``."""
    return (*packets[:seat], packet, *packets[seat + 1 :])


def outcome(table: Table, reason: Reason) -> Outcome[Reason]:
    """C10 and the settled ranking."""
    players, first = table.options.players, table.first_seat

    def clockwise(seat: int) -> int:
        return (seat - first) % players

    if reason == "flip_limit":
        ranking = sorted(range(players), key=lambda seat: (-len(table.packets[seat]), clockwise(seat)))
    else:
        winner = next(seat for seat, packet in enumerate(table.packets) if packet)
        others = [seat for seat in range(players) if seat != winner and seat not in table.excluded]
        others.sort(key=lambda seat: (-table.out_at[seat], clockwise(seat)))
        ranking = [winner, *others, *(seat for seat in reversed(table.excluded) if seat != winner)]
    return Outcome("finished", reason, winner=ranking[0], ranking=tuple(ranking))


def advance(state: S, actions: Any) -> S:
    """The state after every action of ``actions`` in order, all or nothing."""
    table = Table(state)
    for action in actions:
        table.act(action)
    return table.state(type(state)) if table.added else state


def step(state: S, action: Any) -> S:
    """The state after ``action``."""
    table = Table(state)
    table.act(action)
    return table.state(type(state))
