"""Games/second of the greedy bot through the public API, against a mutable floor, in one run.

    python bench/core.py [--quick] [--players 2] [--games N] [--rounds R]
    valgrind --tool=callgrind python bench/core.py --only ours|floor|decks --games 300   (instruction counts)

The floor (``floor_game``) is written only to be fast: one function, mutable lists, no validation,
no views, the greedy policy inlined. Both sides play the same decks and must reach the same scores
(the same policy); the last line printed is ``ratio: <ours/floor>``. Rates are games per second
of this process's CPU time; each round times both sides back to back (alternating which goes
first) and the ratio is the median of the rounds' ratios, so drift in the machine's load hits
both sides of a ratio alike.
"""

from __future__ import annotations

import statistics
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

import paired

import thegame_core as tg
from thegame_core.bots import create_bot
from thegame_core.dealt import shuffled
from thegame_core.games.the_game.state import FULL_DECK
from thegame_core.simulate import derive_seed


def ours_game(deck: Sequence[int], players: int) -> int:
    """One game through the public API: immutable states, observations, the registered bot."""
    state = tg.new_game("the-game", players, deck=deck)
    bots = [create_bot("greedy", seed=seat) for seat in range(players)]
    while state.status == "playing":
        seat = state.current_seat
        state = state.apply_all(bots[seat].act(state.observe(seat)))
    return state.score


def floor_game(deck: Sequence[int], players: int) -> int:  # one function on purpose
    """The same greedy policy as fast as plain mutable Python allows; returns the score."""
    hand_size = {1: 8, 2: 7}.get(players, 6)
    hands = [sorted(deck[seat : players * hand_size : players]) for seat in range(players)]
    drawn, tops, seat = players * hand_size, [1, 1, 100, 100], 0

    def cheapest(hand: list[int], tops: list[int]) -> tuple[int, int, int]:
        best = (1 << 30, 0, -1)
        for pile in (0, 1):
            i = bisect_right(hand, tops[pile])
            if i < len(hand) and hand[i] - tops[pile] < best[0]:
                best = (hand[i] - tops[pile], hand[i], pile)
        for pile in (2, 3):
            i = bisect_left(hand, tops[pile])
            if i and tops[pile] - hand[i - 1] < best[0]:
                best = (tops[pile] - hand[i - 1], hand[i - 1], pile)
        if best[0] > -10:
            for pile, back in ((0, tops[0] - 10), (1, tops[1] - 10), (2, tops[2] + 10), (3, tops[3] + 10)):
                if back in hand:
                    return (-10, back, pile)
        return best

    def search(hand: list[int], tops: list[int], need: int, cost: int, path: list[tuple[int, int]], out: list) -> None:
        if need == 1:
            jump, card, pile = cheapest(hand, tops)
            if pile >= 0 and cost + jump < out[0]:
                out[0], out[1] = cost + jump, [*path, (card, pile)]
            return
        held = set(hand)
        moves = []
        for pile in (0, 1):
            top = tops[pile]
            if top - 10 in held:
                moves.append((-10, top - 10, pile))
            i = bisect_right(hand, top)
            if i < len(hand):
                moves.append((hand[i] - top, hand[i], pile))
                moves += [(c - top, c, pile) for c in hand[i + 1 :] if c - 10 in held]
        for pile in (2, 3):
            top = tops[pile]
            if top + 10 in held:
                moves.append((-10, top + 10, pile))
            i = bisect_left(hand, top)
            if i:
                moves.append((top - hand[i - 1], hand[i - 1], pile))
                moves += [(top - c, c, pile) for c in hand[: i - 1] if c + 10 in held]
        moves.sort()
        for jump, card, pile in moves:
            if cost + jump - 10 * (need - 1) >= out[0]:
                break
            previous, tops[pile] = tops[pile], card
            path.append((card, pile))
            search([c for c in hand if c != card], tops, need - 1, cost + jump, path, out)
            path.pop()
            tops[pile] = previous

    while True:
        hand = hands[seat]
        need = min(2 if drawn < 98 else 1, len(hand))
        out: list = [1 << 30, None]
        search(hand, tops, need, 0, [], out)
        if out[1] is None:
            return 98 - drawn + sum(map(len, hands))
        for card, pile in out[1]:
            hand.remove(card)
            tops[pile] = card
        jump, card, pile = cheapest(hand, tops)
        while hand and jump <= 1:
            hand.remove(card)
            tops[pile] = card
            need += 1
            jump, card, pile = cheapest(hand, tops)
        if drawn == 98 and not any(hands):
            return 0
        take = min(need, 98 - drawn)
        hand.extend(deck[drawn : drawn + take])
        hand.sort()
        drawn += take
        seat = (seat + 1) % players
        while not hands[seat]:
            seat = (seat + 1) % players


def main() -> int:
    args = paired.arguments(__doc__, games=(300, 1000), rounds=(5, 9), only=("ours", "floor", "decks"))
    decks = [shuffled(FULL_DECK, derive_seed(args.seed, index)) for index in range(args.games)]
    if args.only:  # "decks": only the set-up, the baseline to subtract from the other two counts
        play = {"ours": ours_game, "floor": floor_game, "decks": lambda deck, players: 0}[args.only]
        for deck in decks:
            play(deck, args.players)
        return 0
    return paired.compare(
        ours_game, floor_game, decks, args, lambda scores: f"mean score (both): {statistics.fmean(scores):.2f}"
    )


if __name__ == "__main__":
    sys.exit(main())
