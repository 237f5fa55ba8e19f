"""Is Ninja's fast path worth keeping? The rules alone (``engine.step``) against the rules with the fast path
(``fast_path.step``, what ``State.apply`` is), in one run.

    python bench/ninja_fast_path.py [--quick] [--players 2] [--games N] [--rounds R]

Two measures, each round timing both sides back to back (alternating which goes first), CPU time:

- **per action**: ``step(state, action)`` over every (state, action) pair that ``bench/ninja.py``'s policy
  sends in its games (recorded once; the same pairs for both sides), in microseconds per action;
- **whole games**: ``bench/ninja.py``'s loop through the public API (``new_game``, ``asking_order``,
  ``legal_actions``, then the side's ``step`` for ``apply``), in games per second.

Both sides must reach the same ends on every deal (``tests/games/ninja/test_fast_path.py`` checks far more).
The last line printed is ``ratio: <with the fast path / rules alone>`` of whole games.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import paired
from ninja import ours_game

from thegame_core.games.ninja import engine, fast_path
from thegame_core.games.ninja.cards import shuffled_deck
from thegame_core.simulate import derive_seed

Step = Callable[[Any, Any], Any]


def recorded_pairs(decks: Sequence[Sequence[int]], players: int) -> list[tuple[Any, Any]]:
    """Every (state, action) the policy sends in these deals."""
    pairs: list[tuple[Any, Any]] = []

    def recording(state: Any, action: Any) -> Any:
        pairs.append((state, action))
        return fast_path.step(state, action)

    for deck in decks:
        ours_game(deck, players, recording)
    return pairs


def us_per_action(step: Step, pairs: Sequence[tuple[Any, Any]]) -> float:
    started = time.process_time()
    for state, action in pairs:
        step(state, action)
    return (time.process_time() - started) / len(pairs) * 1e6


def per_action(pairs: Sequence[tuple[Any, Any]], rounds: int) -> None:
    """Print each side's median us per action and the median of the rounds' ratios (rules / fast)."""
    fast_times, rules_times = [], []
    for round_number in range(1, rounds + 1):
        sides = (fast_path.step, engine.step) if round_number % 2 else (engine.step, fast_path.step)
        timed = {step: us_per_action(step, pairs) for step in sides}
        fast_times.append(timed[fast_path.step])
        rules_times.append(timed[engine.step])
    fast, rules = statistics.median(fast_times), statistics.median(rules_times)
    ratios = [slow / quick for slow, quick in zip(rules_times, fast_times, strict=True)]
    print(f"per action, {len(pairs)} recorded pairs: with the fast path {fast:.2f} us, rules alone {rules:.2f} us")
    print(f"per action, rules alone / with the fast path: {statistics.median(ratios):.2f} (median of rounds)")


def main() -> int:
    args = paired.arguments(__doc__, games=(100, 400), rounds=(3, 7), only=("fast", "rules"))
    decks = [shuffled_deck(derive_seed(args.seed, index)) for index in range(args.games)]
    with_fast = partial(ours_game, apply=fast_path.step)
    rules_alone = partial(ours_game, apply=engine.step)
    if args.only:
        play = with_fast if args.only == "fast" else rules_alone
        for deck in decks:
            play(deck, args.players)
        return 0
    per_action(recorded_pairs(decks, args.players), args.rounds)
    return paired.compare(
        with_fast,
        rules_alone,
        decks,
        args,
        lambda ends: f"mean turns: {statistics.fmean(end[2] for end in ends):.1f}",
        names=("with the fast path (State.apply)", "rules alone (engine.step)"),
    )


if __name__ == "__main__":
    sys.exit(main())
