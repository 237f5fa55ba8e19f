"""A faster way through Ninja's most common actions, beside the rules (``engine``), which it must agree with.

``try_step`` applies the actions of nearly every turn on local copies of the state's fields: an
in-turn play whose refill needs no choice (from the stock, or past it: face-up cards all taken or all
of one value, face-down cards next) and that is not the game's last turn, a pick-up, a give, an
accept; each taken when one condition says it is fine. It answers None for anything else, including
every action the rules would refuse, and ``step`` then asks ``engine.step``: errors, and every rare
case, come from the rules alone. In CPython a function call costs about as much as a whole play, so
this path makes few; the rules it needs are still the rules' own functions (``rules``).

Kept for its measured gain (``bench/ninja_fast_path.py``, docs/benchmarks.md), and held to the rules by
``tests/games/ninja/test_fast_path.py``: every (state, action) pair it plays, over every option and
player count, gives the same state or the same error through both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from . import engine
from .actions import Accept, Action, Give, PickUp, Play
from .cards import CARDS_IN_DECK, HAND_TARGET, HIGHEST, MAX_COPIES
from .fields import ALONE, GIVE, ONLY, PLAY, PLAYING, Fields, GiveInfo, Window
from .rules import BURN_RUN, EIGHT, NINE, THIRTEEN, after_eights, completion_need, legal_values, reference, run_length

S = TypeVar("S", bound=Fields)
#: ``_GROUPS[value][count]``: the cards of a group, built once.
_GROUPS = tuple(tuple((value,) * count for count in range(MAX_COPIES + 1)) for value in range(HIGHEST + 1))


def advance(state: S, actions: Iterable[Action]) -> S:
    """``engine.advance`` through ``step``: all or nothing."""
    for action in actions:
        state = step(state, action)
    return state


def step(state: S, action: Any) -> S:
    """``engine.step(state, action)``, faster for the common actions."""
    after = try_step(state, action)
    return engine.step(state, action) if after is None else after


def try_step(state: S, action: Any) -> S | None:
    """The state after ``action`` if it is one of the common actions this path takes and the rules
    accept it; None otherwise (``engine.step`` then decides). ``state`` never changes."""
    (
        options, deck, first_seat, hands, face_up, face_down, drawn, pile, burned, last_layer, phase, turn, ready,
        give, window, pending, turns, out, history, outcome, _, _, _,
    ) = state  # fmt: skip
    if outcome is not None or out:  # over, or play_to_last after a seat left (where seats are skipped)
        return None
    kind = type(action)
    players = len(hands)
    if kind is Play and phase == PLAY:
        seat, value, count = action
        hand = hands[seat] if type(seat) is int and seat == turn else ()
        if not (hand and type(value) is int and type(count) is int and 0 < count <= options.limit and value in hand):
            return None
        index = hand.index(value)
        end = index + count
        kept = len(hand) - count
        need = HAND_TARGET - kept  # N10: the refill, planned before anything changes
        stock = CARDS_IN_DECK - drawn
        if not (
            end <= len(hand)
            and hand[end - 1] == value
            and legal_values(reference(pile, options), options)[value]
            and turns + 1 < options.max_turns
            and (
                need <= stock or (not options.from_table and _plain_refill(kept, stock, face_up[seat], face_down[seat]))
            )
        ):
            return None
        # An in-turn play (N6, N7), its refill without a choice, not the last turn.
        rest = hand[:index] + hand[end:]
        if need > 0:
            if need <= stock:
                rest += deck[drawn : drawn + need]
                drawn += need
            else:
                rest += deck[drawn:]
                drawn, need, up = CARDS_IN_DECK, need - stock, face_up[seat]
                if len(up) <= need:
                    rest += up
                    need -= len(up)
                    face_up = (*face_up[:seat], (), *face_up[seat + 1 :])
                    if need:
                        down = face_down[seat]
                        rest += down[:need]
                        face_down = (*face_down[:seat], down[need:], *face_down[seat + 1 :])
                else:
                    rest += up[:need]
                    face_up = (*face_up[:seat], up[need:], *face_up[seat + 1 :])
            rest = tuple(sorted(rest))
        hands = (*hands[:seat], rest, *hands[seat + 1 :])
        turns += 1
        pile += _GROUPS[value][count]
        run = run_length(pile, options)
        window = give = None
        if run >= BURN_RUN or value == NINE:  # N7.4, N7.5: burned, and a new pile led
            burned += len(pile)
            pile, last_layer = (), None
            if run < BURN_RUN and not options.burner_leads:
                turn = seat + 1 if seat + 1 < players else 0
        else:
            last_layer = seat
            need = completion_need(value, run, options)
            if need:
                window = Window(value, seat, need)  # N9
            if value == THIRTEEN:  # N8: the placer names a target
                phase, give = GIVE, GiveInfo(seat, None, seat)
            elif value == EIGHT:  # N7.7
                turn = after_eights(seat, count, players, out, options)
            else:
                turn = seat + 1 if seat + 1 < players else 0
    elif kind is PickUp and phase == PLAY:
        seat = action[0]
        hand = hands[seat] if type(seat) is int and seat == turn else ()
        if not (hand and pile and turns + 1 < options.max_turns):
            return None
        if not options.voluntary_pickup:
            legal_on = legal_values(reference(pile, options), options)
            for card in hand:
                if legal_on[card]:
                    return None  # must_play
        # N11: the pile into the hand, a new pile led
        hands = (*hands[:seat], tuple(sorted(hand + pile)), *hands[seat + 1 :])
        turns += 1
        pile, window = (), None
        if last_layer is None or options.after_pickup_leader != "last_layer":
            turn = seat + 1 if seat + 1 < players else 0
        else:
            turn = last_layer
        last_layer = None
    elif kind is Give and phase == GIVE:
        seat, target = action
        if not (
            type(seat) is int
            and seat == turn
            and give is not None
            and give.target is None
            and type(target) is int
            and 0 <= target < players
            and target != seat
        ):
            return None
        give, turn, window = GiveInfo(seat, target, give.origin), target, None  # N8: the giver names a target
    elif kind is Accept and phase == GIVE:
        seat = action[0]
        if not (type(seat) is int and seat == turn and give is not None and give.target is not None):
            return None
        giver, _, origin = give  # N8: the target takes the pile; a new pile is led
        hands = (*hands[:seat], tuple(sorted(hands[seat] + pile)), *hands[seat + 1 :])
        pile, last_layer, give, phase = (), None, None, PLAY
        rule = options.after_give_leader
        if rule == "last_layer":
            turn = giver
        else:
            turn = origin if rule == "next_after_original_giver" else seat
            turn = turn + 1 if turn + 1 < players else 0
    else:
        return None
    # Not over, not swapping: ``fields.questions`` for the state built, inline; the history grows by
    # concatenation (one new tuple, where ``(*history, action)`` builds a list first).
    asking = None if window is not None or options.out_of_turn else ALONE[turn]
    history += (action,)
    return tuple.__new__(
        type(state),
        (
            options, deck, first_seat, hands, face_up, face_down, drawn, pile, burned, last_layer, phase, turn, ready,
            give, window, pending, turns, out, history, None, PLAYING, ONLY[turn], asking,
        ),
    )  # fmt: skip


def _plain_refill(kept: int, stock: int, up: tuple[int, ...], down: tuple[int, ...]) -> bool:
    """Whether a seat keeping ``kept`` cards refills (draw_into_hand) past a ``stock`` too small
    without a choice to make and without going out (N7.3, N10): it takes all its face-up cards, or
    more than it needs of one value."""
    if len(up) <= HAND_TARGET - kept - stock:
        return kept + stock + len(up) + len(down) > 0
    return up[0] == up[-1]
