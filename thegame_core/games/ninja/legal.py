"""Every action a seat may send now (``legal_actions``), out-of-turn ones included, and the order in
which a referee offers seats a chance to act (``asking_order``).

Built from the same predicates as the transitions (``rules``) and from shared action objects
(actions are immutable): a simulated game asks for thousands of them.
"""

from __future__ import annotations

from itertools import groupby

from .actions import Accept, Action, Complete, Give, PickUp, Play, Ready, Swap, TakeFaceUp
from .cards import HIGHEST, MAX_COPIES, NINJA
from .fields import GIVE, PLAY, REFILL, SWAP, Fields
from .options import MAX_PLAYERS
from .rules import COUNTERS, group_legal, reference


def _source(fields: Fields, seat: int) -> tuple[int, ...]:
    """Where the seat plays from (``engine.Table.source``)."""
    hand = fields.hands[seat]
    if hand or not fields.options.from_table:
        return hand
    return fields.face_up[seat]


def _groups(cards: tuple[int, ...]) -> list[tuple[int, int]]:
    """``(value, copies)`` of the sorted ``cards``, ascending."""
    return [(value, len(tuple(copies))) for value, copies in groupby(cards)]


def _plays(seat: int, value: int, copies: int, limit: int) -> list[Action]:
    return _PLAYS[seat][value][1 : (copies if copies < limit else limit) + 1]


def legal_actions(fields: Fields, seat: int) -> list[Action]:
    """Every action ``seat`` may send now; any other action is refused (``engine``)."""
    if fields.outcome is not None:
        return []
    phase, options = fields.phase, fields.options
    if phase == SWAP:
        if fields.ready[seat]:
            return []
        hand, face_up = sorted(set(fields.hands[seat])), sorted(set(fields.face_up[seat]))
        swaps: list[Action] = [Swap(seat, card, up) for card in hand for up in face_up if card != up]
        return [*swaps, _READY[seat]]
    if phase == REFILL:
        return [_TAKES[seat][value] for value in sorted(set(fields.face_up[seat]))] if seat == fields.turn else []
    actions: list[Action] = []
    limit = options.group_limit
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
            ref = reference(fields.pile, options)
            playable = False
            for value, copies in _groups(source):
                if group_legal(value, ref, options):
                    actions += _plays(seat, value, copies, limit)
                    playable = True
            if fields.pile and (options.voluntary_pickup or not playable):
                actions.append(_PICK_UPS[seat])
        elif options.ninja_out_of_turn and NINJA in source:
            actions += _plays(seat, NINJA, source.count(NINJA), limit)
        return actions
    if phase == GIVE:
        assert fields.give is not None
        giver, target, _ = fields.give
        if target is None:
            if seat == giver:
                out = fields.out
                actions += [
                    _GIVES[seat][other] for other in range(len(fields.hands)) if other != seat and other not in out
                ]
                if options.give_optional:
                    actions.append(_GIVES[seat][None])
        elif seat == target or (options.any_player_may_counter and seat != giver):
            for value in COUNTERS:
                copies = source.count(value)
                if copies:
                    actions += _plays(seat, value, copies, limit)
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
    players, options = len(fields.hands), fields.options
    order: list[int] = []

    def clockwise_after(seat: int) -> list[int]:
        return [(seat + step) % players for step in range(1, players + 1)]

    window = fields.window
    if window is not None:
        value, placer, need = window
        order += [seat for seat in clockwise_after(placer)[:-1] if _source(fields, seat).count(value) >= need]
    phase = fields.phase
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
