"""Every action a seat may send now (``legal_actions``), out-of-turn ones included, and the order in
which a referee offers seats a chance to act (``asking_order``).

Built from the same predicates as the transitions (``rules``) and from shared action objects
(actions are immutable): a simulated game asks for thousands of them.
"""

from __future__ import annotations

from .actions import Accept, Action, Complete, Give, PickUp, Play, Ready, Swap, TakeFaceUp
from .cards import HIGHEST, MAX_COPIES, NINJA
from .fields import GIVE, PLAY, REFILL, SWAP, Fields
from .options import MAX_PLAYERS, Options
from .rules import COUNTERS, group_legal, reference


def _source(fields: Fields, seat: int) -> tuple[int, ...]:
    """Where the seat plays from (``engine.Table.source``)."""
    hand = fields.hands[seat]
    if hand or not fields.options.from_table:
        return hand
    return fields.face_up[seat]


def _group_plays(seat: int, source: tuple[int, ...], ref: int | None, options: Options) -> list[Action]:
    """Every legal group of the sorted ``source`` on ``ref``: each value, each count up to the limit."""
    plays, limit = _PLAYS[seat], options.group_limit
    actions: list[Action] = []
    index, size = 0, len(source)
    while index < size:
        value = source[index]
        end = index + 1
        while end < size and source[end] == value:
            end += 1
        if group_legal(value, ref, options):
            copies = end - index
            actions += plays[value][1 : (copies if copies < limit else limit) + 1]
        index = end
    return actions


def legal_actions(fields: Fields, seat: int) -> list[Action]:
    """Every action ``seat`` may send now; any other action is refused (``engine``)."""
    if fields.outcome is not None:
        return []
    phase, options = fields.phase, fields.options
    if phase == PLAY and seat == fields.turn and fields.window is None:  # most calls: a turn, nothing else open
        source = _source(fields, seat)
        if source:
            actions = _group_plays(seat, source, reference(fields.pile, options), options)
            if fields.pile and (options.voluntary_pickup or not actions):
                actions.append(_PICK_UPS[seat])
            return actions
    if phase == SWAP:
        if fields.ready[seat]:
            return []
        hand, face_up = sorted(set(fields.hands[seat])), sorted(set(fields.face_up[seat]))
        swaps: list[Action] = [Swap(seat, card, up) for card in hand for up in face_up if card != up]
        return [*swaps, _READY[seat]]
    if phase == REFILL:
        return [_TAKES[seat][value] for value in sorted(set(fields.face_up[seat]))] if seat == fields.turn else []
    actions = []
    source = _source(fields, seat)
    window = fields.window
    if window is not None and window[1] != seat and source.count(window[0]) >= window[2]:
        actions.append(_COMPLETES[seat][window[0]])
    if phase == PLAY:
        if seat == fields.turn:
            if not source:  # play_from_table, only face-down cards left: turn one over
                actions.append(_BLIND[seat])
                if options.voluntary_pickup and fields.pile:
                    actions.append(_PICK_UPS[seat])
                return actions
            plays = _group_plays(seat, source, reference(fields.pile, options), options)
            actions += plays
            if fields.pile and (options.voluntary_pickup or not plays):
                actions.append(_PICK_UPS[seat])
        elif options.ninja_out_of_turn and NINJA in source:
            actions += _group_plays(seat, tuple(card for card in source if card == NINJA), None, options)
        return actions
    if phase == GIVE:
        assert fields.give is not None
        giver, target, _ = fields.give
        if target is None:
            if seat == giver:
                gives = _GIVES[seat]
                actions += [
                    gives[other] for other in range(len(fields.hands)) if other != seat and other not in fields.out
                ]
                if options.give_optional:
                    actions.append(gives[None])
        elif seat == target or (options.any_player_may_counter and seat != giver):
            actions += _group_plays(seat, tuple(card for card in source if card in COUNTERS), None, options)
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
    options, phase = fields.options, fields.phase
    if fields.window is None and phase != SWAP and not (options.ninja_out_of_turn or options.any_player_may_counter):
        return (fields.turn,)  # most calls: one seat to act, nobody with an out-of-turn claim
    players = len(fields.hands)
    order: list[int] = []

    def clockwise_after(seat: int) -> list[int]:
        return [(seat + step) % players for step in range(1, players + 1)]

    window = fields.window
    if window is not None:
        value, placer, need = window
        order += [seat for seat in clockwise_after(placer)[:-1] if _source(fields, seat).count(value) >= need]
    if phase == GIVE and options.any_player_may_counter and fields.give is not None and fields.give[1] is not None:
        giver, target, _ = fields.give
        order += [
            seat
            for seat in clockwise_after(giver)
            if seat not in (giver, target) and any(card in COUNTERS for card in _source(fields, seat))
        ]
    elif phase == PLAY and options.ninja_out_of_turn:
        order += [seat for seat in clockwise_after(fields.turn)[:-1] if NINJA in _source(fields, seat)]
    if phase == SWAP:
        order += [seat for seat in clockwise_after(fields.first_seat - 1) if not fields.ready[seat]]
    else:
        order.append(fields.turn)
    return tuple(dict.fromkeys(order))


# Every action object a seat may be offered, built once and shared.
_SEATS = range(MAX_PLAYERS)
_PLAYS: list[list[list[Action]]] = [
    [[Play(seat, value, count) for count in range(MAX_COPIES + 1)] for value in range(HIGHEST + 1)] for seat in _SEATS
]
_BLIND: list[Action] = [Play(seat, None, 1) for seat in _SEATS]
_READY: list[Action] = [Ready(seat) for seat in _SEATS]
_PICK_UPS: list[Action] = [PickUp(seat) for seat in _SEATS]
_ACCEPTS: list[Action] = [Accept(seat) for seat in _SEATS]
_COMPLETES: list[list[Action]] = [[Complete(seat, value) for value in range(HIGHEST + 1)] for seat in _SEATS]
_TAKES: list[list[Action]] = [[TakeFaceUp(seat, value) for value in range(HIGHEST + 1)] for seat in _SEATS]
_GIVES: list[dict[int | None, Action]] = [{target: Give(seat, target) for target in (*_SEATS, None)} for seat in _SEATS]
