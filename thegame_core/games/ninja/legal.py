"""Every action a seat may send now (``legal_actions``), out-of-turn ones included, and the order in
which a referee offers seats a chance to act (``asking_order``).

Built from the same predicates as the transitions (``rules``) and from shared action objects
(actions are immutable): a simulated game asks for thousands of them.
"""

from __future__ import annotations

from ...dealt import seat_problem
from ...errors import InvalidAction
from .actions import Accept, Action, Complete, Give, PickUp, Play, Ready, Swap, TakeFaceUp
from .cards import HIGHEST, MAX_COPIES, NINJA
from .fields import GIVE, PLAY, REFILL, SWAP, Fields
from .options import MAX_PLAYERS, Options
from .rules import COUNTERS, legal_values, reference

#: ``ref`` of an empty pile for ``Options.turn_memo`` (0 is a pile of NINJAs only, where a pick-up is possible).
EMPTY = HIGHEST + 1
MEMO_SIZE = 4096  # hands remembered per seat and reference; a full memo starts over


def _source(fields: Fields, seat: int) -> tuple[int, ...]:
    """Where the seat plays from (``engine.Table.source``)."""
    hand = fields.hands[seat]
    if hand or not fields.options.from_table:
        return hand
    return fields.face_up[seat]


def _group_plays(seat: int, source: tuple[int, ...], legal_on: tuple[bool, ...], limit: int) -> list[Action]:
    """Every legal group of the sorted ``source`` (``legal_on[value]``: may it go on the pile now),
    by ascending value, then count up to ``limit``."""
    groups, actions, last = _GROUPS[seat], [], -1
    for value in source:
        if value != last:
            last = value
            if legal_on[value]:
                copies = source.count(value)
                actions += groups[value][copies if copies < limit else limit]
    return actions


def _turn_plays(seat: int, hand: tuple[int, ...], ref: int, options: Options) -> tuple[Action, ...]:
    """The groups a seat to play may place from ``hand`` on the reference ``ref`` (``EMPTY``: an empty
    pile), then its pick-up if it may (or must) take a pile."""
    plays = _group_plays(seat, hand, legal_values(None if ref == EMPTY else ref, options), options.limit)
    if ref != EMPTY and (options.voluntary_pickup or not plays):
        plays.append(_PICK_UPS[seat])
    return tuple(plays)


def legal_actions(fields: Fields, seat: int) -> list[Action]:
    """Every action ``seat`` may send now, out-of-turn completions, counters and NINJA included, in a
    fixed order: a completion, groups by ascending value then count, a pick-up, ready or accept
    last. Any other action is refused (``engine``). ``InvalidAction`` for a seat not in the game."""
    hands = fields.hands
    if type(seat) is not int or not 0 <= seat < len(hands):
        raise InvalidAction(str(seat_problem(seat, len(hands))))
    if fields.outcome is not None:
        return []
    options, pile, phase, turn, window = fields.options, fields.pile, fields.phase, fields.turn, fields.window
    if phase == PLAY and seat == turn:  # most calls: a turn (groups from the hand, remembered by hand)
        hand = hands[seat]
        if hand:
            ref = (reference(pile, options) or 0) if pile else EMPTY  # 0: NINJAs only, where a pick-up is possible
            memo = options.turn_memo[seat][ref]
            plays = memo.get(hand)
            if plays is None:
                plays = _turn_plays(seat, hand, ref, options)
                if len(memo) >= MEMO_SIZE:
                    memo.clear()
                memo[hand] = plays
            if window is not None and window.placed_by != seat and hand.count(window.value) >= window.need:
                return [_COMPLETES[seat][window.value], *plays]  # a completion first
            return list(plays)
    if phase == SWAP:
        if fields.ready[seat]:
            return []
        held, up = sorted(set(hands[seat])), sorted(set(fields.face_up[seat]))
        swaps: list[Action] = [Swap(seat, card, value) for card in held for value in up if card != value]
        return [*swaps, _READY[seat]]
    if phase == REFILL:
        return [_TAKES[seat][value] for value in sorted(set(fields.face_up[seat]))] if seat == turn else []
    actions = []  # a completion first, then what the phase allows
    source = _source(fields, seat)
    if window is not None and window.placed_by != seat and source.count(window.value) >= window.need:
        actions.append(_COMPLETES[seat][window.value])
    if phase == PLAY:
        if seat == turn:
            if not source:  # play_from_table, only face-down cards left: turn one over
                actions.append(_BLIND[seat])
                if options.voluntary_pickup and pile:
                    actions.append(_PICK_UPS[seat])
                return actions
            plays = _group_plays(seat, source, legal_values(reference(pile, options), options), options.limit)
            actions += plays
            if pile and (options.voluntary_pickup or not plays):
                actions.append(_PICK_UPS[seat])
        elif options.ninja_out_of_turn and NINJA in source:
            actions += _group_plays(seat, source, _ONLY_NINJA, options.limit)
        return actions
    if phase == GIVE:
        give = fields.give
        assert give is not None
        giver, target = give.giver, give.target
        if target is None:
            if seat == giver:
                gives, out = _GIVES[seat], fields.out
                actions += [gives[other] for other in range(len(hands)) if other != seat and other not in out]
                if options.give_optional:
                    actions.append(gives[None])
        elif seat == target or (options.any_player_may_counter and seat != giver):
            actions += _group_plays(seat, source, _ONLY_COUNTERS, options.limit)
            if seat == target:
                actions.append(_ACCEPTS[seat])
    return actions


def asking_order(fields: Fields) -> tuple[int, ...]:
    """Seats in the order a referee offers them a chance to act: seats able to complete (clockwise
    from the placer, N9's priority), then seats able to counter out of turn (clockwise from the
    giver) or to play a NINJA out of turn (clockwise from the player), then the seats waited for.

    It names seats by what they hold, so it is for referees (the simulator, a bot runner), never a view.
    """
    if fields.outcome is not None:
        return ()
    options, phase, turn, window = fields.options, fields.phase, fields.turn, fields.window
    out_of_turn = options.out_of_turn
    if window is None:
        if phase != SWAP and not out_of_turn:
            return (turn,)  # most calls: one seat to act, nobody with an out-of-turn claim
        order: list[int] = []
    else:  # seats able to complete, clockwise from the placer
        value, seat, need = window.value, window.placed_by, window.need
        hands, face_up = fields.hands, fields.face_up
        order, from_table, players = [], options.from_table, len(hands)
        for _ in range(players - 1):
            seat = seat + 1 if seat + 1 < players else 0
            hand = hands[seat]
            if (hand if hand or not from_table else face_up[seat]).count(value) >= need:
                order.append(seat)
        if not out_of_turn:  # a window is never open while swapping
            if turn not in order:
                order.append(turn)
            return tuple(order)
    players = len(fields.hands)

    def clockwise_after(seat: int) -> list[int]:
        return [(seat + step) % players for step in range(1, players + 1)]

    give = fields.give
    if phase == GIVE and options.any_player_may_counter and give is not None and give.target is not None:
        giver, target = give.giver, give.target
        order += [
            seat
            for seat in clockwise_after(giver)
            if seat not in (giver, target) and any(card in COUNTERS for card in _source(fields, seat))
        ]
    elif phase == PLAY and options.ninja_out_of_turn:
        order += [seat for seat in clockwise_after(turn)[:-1] if NINJA in _source(fields, seat)]
    if phase == SWAP:
        order += [seat for seat in clockwise_after(fields.first_seat - 1) if not fields.ready[seat]]
    else:
        order.append(turn)
    return tuple(dict.fromkeys(order))


# Every action object a seat may be offered, built once and shared.
_SEATS = range(MAX_PLAYERS)
_VALUES = range(HIGHEST + 1)
_ONLY_NINJA = tuple(value == NINJA for value in _VALUES)  # NINJA out of turn
_ONLY_COUNTERS = tuple(value in COUNTERS for value in _VALUES)  # counters to a give (N8)
_PLAYS: list[list[list[Action]]] = [
    [[Play(seat, value, count) for count in range(MAX_COPIES + 1)] for value in _VALUES] for seat in _SEATS
]
#: ``_GROUPS[seat][value][copies]``: the groups of ``copies`` cards of ``value``, one to all of them.
_GROUPS: list[list[list[list[Action]]]] = [
    [[plays[1 : copies + 1] for copies in range(MAX_COPIES + 1)] for plays in by_value] for by_value in _PLAYS
]
_BLIND: list[Action] = [Play(seat, None, 1) for seat in _SEATS]
_READY: list[Action] = [Ready(seat) for seat in _SEATS]
_PICK_UPS: list[Action] = [PickUp(seat) for seat in _SEATS]
_ACCEPTS: list[Action] = [Accept(seat) for seat in _SEATS]
_COMPLETES: list[list[Action]] = [[Complete(seat, value) for value in _VALUES] for seat in _SEATS]
_TAKES: list[list[Action]] = [[TakeFaceUp(seat, value) for value in _VALUES] for seat in _SEATS]
_GIVES: list[dict[int | None, Action]] = [{target: Give(seat, target) for target in (*_SEATS, None)} for seat in _SEATS]
