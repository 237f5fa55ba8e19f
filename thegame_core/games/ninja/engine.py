"""The transitions of Ninja (N4.3-N12): every action checked in the contract's order, then applied.

This module is the rules as transitions, written to be read: ``step`` copies the state's fields onto
a ``Table`` (a mutable scratch object), checks the action and hands it to the rule's own function
(``_play``, ``_give``...), then builds the new state; ``advance`` steps through a batch. The caller's
state is never touched, so an action refused anywhere leaves it exactly as it was (all or nothing).
``fast_path`` applies the most common actions faster and must agree with this module on every one.

Errors come in the contract's order: ``GameOver``, ``InvalidAction`` (malformed), ``NotYourTurn``
(an in-turn action from a seat the game is not waiting for), then ``IllegalAction`` with a rule code
(``ERRORS`` lists them all).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar

from ...errors import GameOver, IllegalAction, InvalidAction, NotYourTurn
from ...outcome import Outcome, Status
from .actions import Accept, Action, Complete, Give, PickUp, Play, Ready, Swap, TakeFaceUp, shape_problem
from .cards import CARDS_IN_DECK, HAND_TARGET, NINJA, card_name
from .fields import GIVE, PLAY, REFILL, SWAP, Fields, GiveInfo, Pending, Phase, Reason, Window, questions, read_fields
from .options import Options
from .rules import (
    BURN_RUN,
    COUNTERS,
    EIGHT,
    NINE,
    THIRTEEN,
    after_eights,
    completion_need,
    group_legal,
    next_seat,
    reference,
    run_length,
    seat_in_game,
)

OUT_OF_CARDS: Reason = "out_of_cards"
TURN_LIMIT: Reason = "turn_limit"
OUTCOME_REASONS: dict[str, str] = {
    OUT_OF_CARDS: "a seat has no cards left anywhere (N7.3); with play_to_last, when one seat is left",
    TURN_LIMIT: "max_turns in-turn plays and pick-ups were made; ranked by fewest cards held",
}
ERRORS = {
    "not_in_phase": "the action does not belong to the current phase (e.g. a play while swapping, a give with "
    "no 13 to give, a pick-up or a play by the giver before naming a target, a take_face_up with no refill asking)",
    "same_value_swap": "swapping two cards of the same value is not an action",
    "card_not_in_hand": "the seat does not hold that many cards of that value where it plays from (its hand; "
    "with play_from_table and an empty hand, its face-up cards)",
    "not_face_up": "the card is not among the seat's face-up cards (swap, take_face_up)",
    "too_many_cards": "more cards in one group than max_cards_per_play",
    "illegal_play": "the group cannot go on the pile now (N5), also for a seat that must pick up; a give is "
    "countered only with 13s or 1s (never a NINJA)",
    "must_play": "a pick-up while holding a legal group (unless voluntary_pickup); with play_from_table and only "
    "face-down cards left, the seat must play blind",
    "empty_pile": "a pick-up with nothing on the pile",
    "must_give": "declining to give (give without target) needs give_optional",
    "bad_target": "a give names the giver itself or a seat that is out of the game",
    "window_closed": "no completion window is open for that value, the seat placed the pair itself, or it does "
    "not hold the missing copies",
    "not_blind": "a blind play (value null) is only for a seat to play, with play_from_table, once its hand and "
    "face-up cards are gone",
}


S = TypeVar("S", bound=Fields)


class Table:
    """The fields of a state being changed by an action (``Fields``), as attributes: per-seat zones stay tuples,
    and a change replaces one seat's entry (``_put``). ``history`` and the derived fields are set when the new
    state is built (``state``). Its slots follow ``Fields``; a test holds its declarations to ``Fields``' own."""

    __slots__ = (*Fields._fields, "players")
    options: Options
    deck: tuple[int, ...]
    first_seat: int
    hands: tuple[tuple[int, ...], ...]
    face_up: tuple[tuple[int, ...], ...]
    face_down: tuple[tuple[int, ...], ...]
    drawn: int
    pile: tuple[int, ...]
    burned: int
    last_layer: int | None
    phase: Phase
    turn: int
    ready: tuple[bool, ...]
    give: GiveInfo | None
    window: Window | None
    pending: Pending | None
    turns: int
    out: tuple[int, ...]
    history: tuple[Action, ...]
    outcome: Outcome[Reason] | None
    status: Status
    waiting_for: frozenset[int]
    asking: tuple[int, ...] | None
    players: int

    @classmethod
    def copy_of(cls, state: Fields) -> Table:
        """A table holding ``state``'s fields, but the history and the derived ones."""
        table = cls()
        table.options, table.deck, table.first_seat = state.options, state.deck, state.first_seat
        table.hands, table.face_up, table.face_down = state.hands, state.face_up, state.face_down
        table.drawn, table.pile, table.burned, table.last_layer = (
            state.drawn,
            state.pile,
            state.burned,
            state.last_layer,
        )
        table.phase, table.turn, table.ready = state.phase, state.turn, state.ready
        table.give, table.window, table.pending = state.give, state.window, state.pending
        table.turns, table.out, table.outcome = state.turns, state.out, state.outcome
        table.players = len(state.hands)
        return table

    def state(self, cls: type[S], history: tuple[Action, ...]) -> S:
        """The state of class ``cls`` holding this table's fields, ``history`` and what follows from them, read by name
        (``fields.read_fields``)."""
        self.history = history
        self.status, self.waiting_for, self.asking = questions(
            self.options, self.phase, self.turn, self.ready, self.window, self.outcome
        )
        return tuple.__new__(cls, read_fields(self))

    # Facts used by several steps -----------------------------------------------------------
    def held(self, seat: int) -> int:
        """Cards the seat still has: hand, face-up and face-down (the ranking's measure)."""
        return len(self.hands[seat]) + len(self.face_up[seat]) + len(self.face_down[seat])

    def source(self, seat: int) -> tuple[int, ...]:
        """The cards the seat plays from: its hand; with play_from_table and an empty hand, its face-up cards."""
        hand = self.hands[seat]
        if hand or not self.options.from_table:
            return hand
        return self.face_up[seat]

    def take_from_source(self, seat: int, value: int, count: int) -> None:
        """Remove ``count`` cards of ``value`` from where the seat plays (checked before)."""
        hand = self.hands[seat]
        if hand or not self.options.from_table:
            self.hands = _put(self.hands, seat, _without(hand, value, count))
        else:
            self.face_up = _put(self.face_up, seat, _without(self.face_up[seat], value, count))


def _put(zones: tuple[tuple[int, ...], ...], seat: int, cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``zones`` with seat ``seat``'s entry replaced by ``cards``."""
    return (*zones[:seat], cards, *zones[seat + 1 :])


def _without(cards: tuple[int, ...], value: int, count: int) -> tuple[int, ...]:
    """``cards`` (sorted, so copies are adjacent) less ``count`` copies of ``value``."""
    index = cards.index(value)
    return cards[:index] + cards[index + count :]


def _sorted(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


def advance(state: S, actions: Iterable[Action]) -> S:
    """The state after every action in order (a new instance of ``state``'s class); raises
    ``GameError`` at the first refused one, and ``state`` never changes (all or nothing: the states
    in between are dropped)."""
    for action in actions:
        state = step(state, action)
    return state


def step(state: S, action: Any) -> S:
    """The state after ``action`` (a new instance of ``state``'s class): every check in the contract's
    order, then the rule's own function, on a ``Table``. Raises ``GameError`` if it is refused, and
    ``state`` never changes."""
    table = Table.copy_of(state)
    if table.outcome is not None:
        raise GameOver("the game is over: no action is accepted")
    problem = shape_problem(action, table.players)
    if problem is not None:
        raise InvalidAction(problem)
    _STEPS[type(action)](table, action)
    return table.state(type(state), (*state.history, action))


def _refuse(code: str, message: str) -> NoReturn:
    raise IllegalAction(message, code=code)


def waited_for(table: Table | Fields, seat: int) -> bool:
    """Whether the game waits for an action of ``seat`` (``waiting_for``)."""
    if table.outcome is not None:
        return False
    if table.phase == SWAP:
        return not table.ready[seat]
    return seat == table.turn


def _in_turn(table: Table, seat: int) -> None:
    if not waited_for(table, seat):
        if table.phase == SWAP:
            raise NotYourTurn(f"seat {seat} is already ready; the others are still swapping")
        raise NotYourTurn(f"the game waits for seat {table.turn}, not seat {seat}")


def _in_phase(table: Table, phase: Phase, what: str) -> None:
    if table.phase != phase:
        _refuse("not_in_phase", f"{what} (the phase is {table.phase})")


# The swap phase (N4.3) ----------------------------------------------------------------------
def _swap(table: Table, action: Swap) -> None:
    seat, hand_card, face_up_card = action
    _in_turn(table, seat)
    _in_phase(table, SWAP, "swaps are made before play starts")
    hand, face_up = table.hands[seat], table.face_up[seat]
    if hand_card not in hand:
        _refuse("card_not_in_hand", f"seat {seat} holds no {card_name(hand_card)} in hand")
    if face_up_card not in face_up:
        _refuse("not_face_up", f"seat {seat} has no {card_name(face_up_card)} face up")
    if hand_card == face_up_card:
        _refuse("same_value_swap", "swapping two cards of the same value changes nothing")
    table.hands = _put(table.hands, seat, _sorted((*_without(hand, hand_card, 1), face_up_card)))
    table.face_up = _put(table.face_up, seat, _sorted((*_without(face_up, face_up_card, 1), hand_card)))


def _ready(table: Table, action: Ready) -> None:
    seat = action.seat
    _in_turn(table, seat)
    _in_phase(table, SWAP, "ready ends the swap phase, which is over")
    ready = table.ready = (*table.ready[:seat], True, *table.ready[seat + 1 :])
    if all(ready):  # N4.4: the first turn goes to first_seat, on an empty pile
        table.phase, table.turn = PLAY, table.first_seat


# Placements (N6, N8 counters, N9 completions) and their resolution (N7) -----------------------
def _play(table: Table, action: Play) -> None:
    seat, value, count = action
    phase = table.phase
    if (phase == SWAP or seat != table.turn) and not _may_play_out_of_turn(table, seat, value):
        _in_turn(table, seat)
    if phase == PLAY:
        if value is None:
            _blind(table, seat)
            return
        _check_group(table, seat, value, count)
        options = table.options
        ref = reference(table.pile, options)
        if not group_legal(value, ref, options):
            _refuse("illegal_play", f"{count} x {card_name(value)} cannot go on {card_name(ref or NINJA)}")
        table.take_from_source(seat, value, count)
        if seat == table.turn:
            table.turns += 1
        _place(table, seat, value, count, seat)
        return
    if phase == GIVE:
        assert table.give is not None
        giver, target, origin = table.give
        if target is None:
            _refuse("not_in_phase", f"seat {giver} placed a 13 and names a target first")
        if value is None or value not in COUNTERS:
            _refuse("illegal_play", "only 13s or 1s counter a give (a NINJA cannot)")
        _check_group(table, seat, value, count)
        table.take_from_source(seat, value, count)
        _place(table, seat, value, count, origin)
        return
    _refuse("not_in_phase", f"cards are played once every seat is ready, between refills (the phase is {phase})")


def _may_play_out_of_turn(table: Table, seat: int, value: int | None) -> bool:
    """NINJA out of turn (``ninja_out_of_turn``, while a seat is to play) or a counter to another
    seat's give (``any_player_may_counter``, once the target is named, never by the giver)."""
    options = table.options
    if table.phase == PLAY:
        return value == NINJA and options.ninja_out_of_turn
    if table.phase == GIVE and options.any_player_may_counter and value in COUNTERS:
        assert table.give is not None
        return table.give.target is not None and seat != table.give.giver
    return False


def _check_group(table: Table, seat: int, value: int, count: int) -> None:
    held = table.source(seat).count(value)
    if held < count:
        where = "hand" if table.hands[seat] or not table.options.from_table else "face-up cards"
        _refuse("card_not_in_hand", f"seat {seat} has {held} x {card_name(value)} in its {where}, not {count}")
    if count > table.options.group_limit:
        _refuse("too_many_cards", f"at most {table.options.max_cards_per_play} cards in one group")


def _blind(table: Table, seat: int) -> None:
    """Turn over the seat's next face-down card (play_from_table): placed if legal, else it goes
    into the hand with the pile, as a pick-up (N11)."""
    if not (table.options.from_table and seat == table.turn and not table.hands[seat] and not table.face_up[seat]):
        _refuse("not_blind", "a blind play is only for a seat whose hand and face-up cards are gone (play_from_table)")
    face_down = table.face_down[seat]
    card = face_down[0]
    table.face_down = _put(table.face_down, seat, face_down[1:])
    table.turns += 1
    if group_legal(card, reference(table.pile, table.options), table.options):
        _place(table, seat, card, 1, seat)
    else:
        _take_pile(table, seat, card)


def _complete(table: Table, action: Complete) -> None:
    seat, value = action
    window = table.window
    if window is None or window.value != value or window.placed_by == seat:
        _refuse("window_closed", f"no completion of {card_name(value)} is open to seat {seat}")
    need = window.need
    if table.source(seat).count(value) < need:
        _refuse("window_closed", f"completing the {card_name(value)}s takes {need} of them, which seat {seat} lacks")
    table.take_from_source(seat, value, need)
    _place(table, seat, value, need, seat)


def _place(table: Table, seat: int, value: int, count: int, origin: int) -> None:
    """N7.1-N7.2: put the group on the pile and refill the placer; the rest once the refill is done."""
    table.pile += (value,) * count
    table.last_layer, table.window, table.give = seat, None, None
    if len(table.hands[seat]) >= HAND_TARGET or _refill(table, seat):
        _resolve(table, seat, value, count, origin)
    else:
        table.phase, table.turn, table.pending = REFILL, seat, Pending(seat, value, count, origin)


def _refill(table: Table, seat: int) -> bool:
    """N10: bring the hand up to 3 from the stock, then (draw_into_hand) the face-up cards, then the
    face-down ones in deal order. False when the seat must choose which face-up card to take."""
    hand = table.hands[seat]
    need = HAND_TARGET - len(hand)
    if need <= 0:
        return True
    drawn = table.drawn
    left = CARDS_IN_DECK - drawn
    if left:
        take = need if need < left else left
        hand += table.deck[drawn : drawn + take]
        table.drawn = drawn + take
        need -= take
    if need and not table.options.from_table:
        face_up = table.face_up[seat]
        if len(face_up) <= need:
            hand += face_up
            need -= len(face_up)
            table.face_up = _put(table.face_up, seat, ())
        elif face_up[0] == face_up[-1]:  # sorted: all of one value, the choice does not matter
            hand += face_up[:need]
            table.face_up = _put(table.face_up, seat, face_up[need:])
            need = 0
        else:
            table.hands = _put(table.hands, seat, _sorted(hand))
            return False
        if need:
            face_down = table.face_down[seat]
            hand += face_down[:need]
            table.face_down = _put(table.face_down, seat, face_down[need:])
    table.hands = _put(table.hands, seat, _sorted(hand))
    return True


def _take_face_up(table: Table, action: TakeFaceUp) -> None:
    seat, value = action
    _in_turn(table, seat)
    _in_phase(table, REFILL, "a face-up card is taken only when a refill asks for one")
    face_up = table.face_up[seat]
    if value not in face_up:
        _refuse("not_face_up", f"seat {seat} has no {card_name(value)} face up")
    table.face_up = _put(table.face_up, seat, _without(face_up, value, 1))
    table.hands = _put(table.hands, seat, _sorted((*table.hands[seat], value)))
    if _refill(table, seat):
        assert table.pending is not None
        pending, table.pending = table.pending, None
        _resolve(table, *pending)


def _resolve(table: Table, seat: int, value: int, count: int, origin: int) -> None:
    """N7.3-N7.7 for a placement of ``count`` x ``value`` by ``seat``, its refill done."""
    options, players = table.options, table.players
    if not (table.hands[seat] or table.face_up[seat] or table.face_down[seat]):
        table.out += (seat,)
        if not options.play_to_last or players - len(table.out) <= 1:
            _finish(table, OUT_OF_CARDS)
            return
    if table.turns >= options.max_turns:
        _finish(table, TURN_LIMIT)
        return
    out, pile = table.out, table.pile
    run = run_length(pile, options)
    table.phase = PLAY
    if run >= BURN_RUN or value == NINE:  # N7.4, N7.5: the pile is burned and a new one led
        table.burned += len(pile)
        table.pile, table.last_layer = (), None
        leader = seat if run >= BURN_RUN or options.burner_leads else next_seat(seat, players, out)
        table.turn = seat_in_game(leader, players, out)
        return
    need = completion_need(value, run, options)
    if need:
        table.window = Window(value, seat, need)
    if value == THIRTEEN and seat not in out:  # N8: the placer names a target
        table.phase, table.turn, table.give = GIVE, seat, GiveInfo(seat, None, origin)
    elif value == EIGHT:
        table.turn = after_eights(seat, count, players, out, options)
    else:
        table.turn = next_seat(seat, players, out)


# Pick-ups and gives (N8, N11) ----------------------------------------------------------------
def _pick_up(table: Table, action: PickUp) -> None:
    seat = action.seat
    _in_turn(table, seat)
    _in_phase(table, PLAY, "the pile is picked up in one's turn (a target of a give accepts it)")
    options = table.options
    if not options.voluntary_pickup:
        source = table.source(seat)
        if not source:
            _refuse("must_play", "with only face-down cards left, play one blind")
        ref = reference(table.pile, options)
        for value in set(source):
            if group_legal(value, ref, options):
                _refuse("must_play", f"seat {seat} can play its {card_name(value)}s and must")
    if not table.pile:
        _refuse("empty_pile", "there is nothing to pick up")
    table.turns += 1
    _take_pile(table, seat)


def _take_pile(table: Table, seat: int, *extra: int) -> None:
    """N11: the seat takes the pile (and a blind card that could not go on it); a new pile is led."""
    options = table.options
    table.hands = _put(table.hands, seat, _sorted((*table.hands[seat], *table.pile, *extra)))
    table.pile, table.window = (), None
    leader = table.last_layer if options.after_pickup_leader == "last_layer" else None
    if leader is None:  # next_after_picker
        leader = next_seat(seat, table.players, table.out)
    table.last_layer = None
    if table.turns >= options.max_turns:
        _finish(table, TURN_LIMIT)
        return
    table.turn = seat_in_game(leader, table.players, table.out)


def _give(table: Table, action: Give) -> None:
    seat, target = action
    _in_turn(table, seat)
    give = table.give
    if table.phase != GIVE or give is None or give.target is not None:
        _refuse("not_in_phase", "a give follows one's own 13s")
    if target is None:
        if not table.options.give_optional:
            _refuse("must_give", "a 13 gives the pile: name a target")
        table.give, table.phase, table.window = None, PLAY, None
        table.turn = next_seat(seat, table.players, table.out)
        return
    if target == seat or target in table.out:
        _refuse("bad_target", f"seat {seat} cannot give the pile to seat {target}")
    table.give, table.turn, table.window = give._replace(target=target), target, None


def _accept(table: Table, action: Accept) -> None:
    seat = action.seat
    _in_turn(table, seat)
    give = table.give
    if table.phase != GIVE or give is None or give.target is None:
        _refuse("not_in_phase", "only the target of a give accepts the pile")
    giver, _, origin = give
    table.hands = _put(table.hands, seat, _sorted((*table.hands[seat], *table.pile)))
    table.pile, table.last_layer, table.give, table.phase = (), None, None, PLAY
    rule, players, out = table.options.after_give_leader, table.players, table.out
    if rule == "last_layer":
        leader = giver
    else:
        leader = next_seat(origin if rule == "next_after_original_giver" else seat, players, out)
    table.turn = seat_in_game(leader, players, out)


def _finish(table: Table, reason: Reason) -> None:
    """End the game: seats out first, in the order they went out, then by fewest cards held, ties
    clockwise from ``first_seat``."""
    players, first = table.players, table.first_seat
    rest = sorted(
        (seat for seat in range(players) if seat not in table.out),
        key=lambda seat: (table.held(seat), (seat - first) % players),
    )
    ranking = (*table.out, *rest)
    table.outcome = Outcome("finished", reason, winner=ranking[0], ranking=ranking)
    table.phase, table.give, table.window, table.pending = PLAY, None, None, None


_STEPS: dict[type[Any], Callable[[Table, Any], None]] = {
    Swap: _swap,
    Ready: _ready,
    Play: _play,
    PickUp: _pick_up,
    Give: _give,
    Accept: _accept,
    Complete: _complete,
    TakeFaceUp: _take_face_up,
}
