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

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

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


def ours_game(deck: Sequence[int], players: int) -> End:
    """One game through the public API."""
    state = tg.new_game("ninja", players, deck=deck)
    while state.status == "playing":
        waiting = state.waiting_for
        for seat in state.asking_order():
            action = choose(state.legal_actions(seat), seat, seat in waiting, players)
            if action is not None:
                state = state.apply(action)
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


def time_games(
    play: Callable[[Sequence[int], int], End], decks: list[tuple[int, ...]], players: int
) -> tuple[float, list[End]]:
    started = time.process_time()  # CPU time of this process: steadier than wall time on a shared machine
    ends = [play(deck, players) for deck in decks]
    return len(decks) / (time.process_time() - started), ends


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small run, well under 30 s")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=None, help="games per round (default 500, quick 150)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds, each timing both sides (default 7, quick 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["ours", "floor"], help="play one side untimed (for a profiler)")
    args = parser.parse_args()
    games = args.games or (150 if args.quick else 500)
    rounds = args.rounds or (3 if args.quick else 7)
    decks = [shuffled_deck(derive_seed(args.seed, index)) for index in range(games)]
    if args.only:
        play = ours_game if args.only == "ours" else floor_game
        for deck in decks:
            play(deck, args.players)
        return 0
    ours_rates, floor_rates, ratios = [], [], []
    for round_number in range(1, rounds + 1):
        sides = (ours_game, floor_game) if round_number % 2 else (floor_game, ours_game)
        timed = {play: time_games(play, decks, args.players) for play in sides}
        (ours_rate, ours_ends), (floor_rate, floor_ends) = timed[ours_game], timed[floor_game]
        if ours_ends != floor_ends:
            wrong = next(i for i, (a, b) in enumerate(zip(ours_ends, floor_ends, strict=True)) if a != b)
            print(f"error: deal {wrong}: library {ours_ends[wrong]}, floor {floor_ends[wrong]}", file=sys.stderr)
            return 1
        ours_rates.append(ours_rate)
        floor_rates.append(floor_rate)
        ratios.append(ours_rate / floor_rate)
        print(
            f"round {round_number}: ours {ours_rate:7.0f} games/s   floor {floor_rate:7.0f} games/s   {ratios[-1]:.2f}"
        )
    turns = statistics.fmean(end[2] for end in ours_ends)
    print(f"players: {args.players}  games per round: {games}  rounds: {rounds}  python: {sys.version.split()[0]}")
    print(f"mean turns (both): {turns:.1f}")
    print(f"ours (public API, immutable): {statistics.median(ours_rates):.0f} games/s (median of rounds)")
    print(f"floor (mutable, one function): {statistics.median(floor_rates):.0f} games/s (median of rounds)")
    print(f"ratio = median of the rounds' ratios (lowest {min(ratios):.2f}, highest {max(ratios):.2f})")
    print(f"ratio: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
