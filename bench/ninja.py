"""Ninja games/second through the public API, against a mutable floor of the same policy, in one run.

    python bench/ninja.py [--quick] [--players 2] [--games N] [--rounds R]
    python -m cProfile -s tottime bench/ninja.py --only ours --games 300   (where the library's time goes)

The policy, on both sides: every seat is ready at once; a seat able to complete does; a seat to play
plays its lowest legal value (NINJA counts as the highest), every copy, and picks up only when
nothing is legal; a 13's giver gives to the next seat; a target counters with 1s, else 13s, else
accepts; a refill takes the lowest face-up card.

``ours_game`` plays it through the public API only (``tg.new_game``, ``asking_order``,
``legal_actions``, ``apply``): immutable states, every action checked. ``floor_game`` is written
only to be fast: one function, count lists, the default rules and nothing else, no validation, no
views. Both sides play the same deals and must reach the same ends (winner, reason, turns): the
same policy under the same rules. Rates are games per second of this process's CPU time; each
round times both sides back to back (alternating which goes first) and the ratio is the median of
the rounds' ratios. The last line printed is ``ratio: <ours/floor>``.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

import paired

import thegame_core as tg
from thegame_core.games.ninja import Complete, Give, Play, TakeFaceUp
from thegame_core.games.ninja.cards import shuffled_deck
from thegame_core.simulate import derive_seed

End = tuple[int | None, str, int]  # winner, reason, turns


def choose(legal: Sequence[Any], seat: int, waited: bool, players: int) -> Any:
    """The policy on a seat's legal actions, as listed by the game: a completion comes first, then
    groups by ascending value (NINJA first) and ascending count; ``None`` declines."""
    first = legal[0]
    kind = type(first)
    if kind is Complete:
        return first
    if not waited:
        return None
    if kind is Play:
        best = ninja = None
        for action in legal:
            if type(action) is not Play:
                break
            value = action.value
            if not value:
                ninja = action  # the last NINJA group listed has every copy
            elif best is None or best.value == value:
                best = action  # the lowest value, the last listed has every copy
            else:
                break
        return best or ninja
    if kind is Give:
        return next(action for action in legal if action.target == (seat + 1) % players)
    if kind is TakeFaceUp:
        return first  # listed by ascending value
    return legal[-1]  # ready after the swaps, pick up or accept: always listed last


def ours_game(deck: Sequence[int], players: int, apply: Callable[[Any, Any], Any] | None = None) -> End:
    """One game through the public API; ``apply(state, action)`` in place of ``state.apply(action)`` if given
    (``bench/ninja_fast_path.py``: the rules alone, or with the fast path)."""
    state = tg.new_game("ninja", players, deck=deck)
    step = type(state).apply if apply is None else apply
    while state.status == "playing":
        waiting = state.waiting_for
        for seat in state.asking_order():
            action = choose(state.legal_actions(seat), seat, seat in waiting, players)
            if action is not None:
                state = step(state, action)
                break
    outcome = state.outcome
    assert outcome is not None
    return outcome.winner, outcome.reason, state.turns


def floor_game(deck: Sequence[int], players: int, max_turns: int = 2000) -> End:  # one function on purpose
    """The same policy under the default rules, as fast as plain mutable Python allows."""
    rounds = 3 * players
    down = [list(deck[seat:rounds:players]) for seat in range(players)]
    up = [sorted(deck[rounds + seat : 2 * rounds : players]) for seat in range(players)]
    hands = [[0] * 14 for _ in range(players)]
    for seat in range(players):
        for card in deck[2 * rounds + seat : 3 * rounds : players]:
            hands[seat][card] += 1
    sizes = [3] * players
    drawn, size = 3 * rounds, len(deck)
    pile: list[int] = []
    ref = run = turns = 0
    last = seat = 0
    counter = False  # the seat to act is the target of a give

    def held(seat: int) -> int:
        return sizes[seat] + len(up[seat]) + len(down[seat])

    def end(reason: str, winner: int | None = None) -> End:
        if winner is None:
            winner = min(range(players), key=lambda seat: (held(seat), seat))
        return winner, reason, turns

    while True:
        hand = hands[seat]
        if counter:  # answer a give: 1s, else 13s, else take the pile; the giver leads
            value = 1 if hand[1] else 13 if hand[13] else -1
            in_turn = False
        else:
            value = -1
            for candidate in range(1, 14):
                if hand[candidate] and (
                    not ref or (candidate <= 6 if ref == 6 else candidate >= ref or (candidate == 1 and ref == 13))
                ):
                    value = candidate
                    break
            if value < 0 and hand[0]:
                value = 0
            in_turn = True
        if value < 0:
            for card in pile:
                hand[card] += 1
            sizes[seat] += len(pile)
            pile.clear()
            ref = run = 0
            if not counter:
                turns += 1
                if turns >= max_turns:
                    return end("turn_limit")
            seat, counter = last, False
            continue
        count = hand[value]
        while True:  # a placement, then any completion it opens (a placement too)
            hand[value] = 0 if count == hand[value] else hand[value] - count
            sizes[seat] -= count
            if value == 0:
                run = 0
            elif run and pile[-1] == value:
                run += count
            else:
                run = count
            pile += [value] * count
            if value:
                ref = value
            last = seat
            if in_turn:
                turns += 1
            need = 3 - sizes[seat]
            if need > 0:
                take = min(need, size - drawn)
                for card in deck[drawn : drawn + take]:
                    hand[card] += 1
                drawn += take
                need -= take
                face_up = up[seat]
                while need and face_up:
                    hand[face_up.pop(0)] += 1
                    need -= 1
                    take += 1
                face_down = down[seat]
                while need and face_down:
                    hand[face_down.pop(0)] += 1
                    need -= 1
                    take += 1
                sizes[seat] += take
            if not sizes[seat] and not up[seat] and not down[seat]:
                return end("out_of_cards", seat)
            if turns >= max_turns:
                return end("turn_limit")
            completer = -1
            if run == 2 and value != 6 and value:
                for step in range(1, players):
                    other = (seat + step) % players
                    if hands[other][value] >= 2:
                        completer = other
                        break
            if completer < 0 or value == 9:
                break
            seat, hand, count, in_turn = completer, hands[completer], 2, False
        counter = False
        if value == 9 or run >= 4:
            pile.clear()
            ref = run = 0
        elif value == 13:
            seat, counter = (seat + 1) % players, True
        elif value == 8:
            seat = seat if count >= players - 1 else (seat + count + 1) % players
        else:
            seat = (seat + 1) % players


def main() -> int:
    args = paired.arguments(__doc__, games=(150, 500), rounds=(3, 7), only=("ours", "floor"))
    decks = [shuffled_deck(derive_seed(args.seed, index)) for index in range(args.games)]
    if args.only:
        play = ours_game if args.only == "ours" else floor_game
        for deck in decks:
            play(deck, args.players)
        return 0
    return paired.compare(
        ours_game,
        floor_game,
        decks,
        args,
        lambda ends: f"mean turns (both): {statistics.fmean(e[2] for e in ends):.1f}",
    )


if __name__ == "__main__":
    sys.exit(main())
