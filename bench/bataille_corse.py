"""Measure Bataille corse's simulator: games a minute of ``best`` against ``random`` at 2 players, raced by
reaction times, against a baseline measured in the same run: the rules alone applying actions with no bot and no
race (the seat on turn flips, until the game ends), the floor the simulator stands on, per action.

    python bench/bataille_corse.py [--games 3000] [--workers 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import thegame_core as tg
from thegame_core.simulate import Setup, derive_seed, play_records


def simulator(setup: Setup, games: int, workers: int) -> tuple[float, float]:
    """Games a minute, and microseconds per applied action."""
    started = time.perf_counter()
    records = [record for chunk in play_records(setup, games, workers) for record in chunk]
    seconds = time.perf_counter() - started
    return games / seconds * 60, seconds / sum(record.actions for record in records) * 1e6 * workers


def rules_alone(games: int, seed: int) -> float:
    """Microseconds per action of flip-only games (at most 200 flips, as long as a game against random): the
    engine without bots, observations or races."""
    actions, started = 0, time.perf_counter()
    for deal in range(games):
        state = tg.new_game("bataille-corse", 2, seed=derive_seed(seed, deal), options={"max_flips": 200})
        while state.outcome is None:
            state = state.apply(state.legal_actions(state.current_seat or 0)[0])
        actions += state.version
    return (time.perf_counter() - started) / actions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup = Setup("bataille-corse", 2, ("best", "random"), seed=args.seed)
    floor = rules_alone(200, args.seed)
    print(f"baseline, the rules alone (flips, no bot): {floor:.1f} us an action")
    for workers in sorted({1, args.workers}):
        rate, per_action = simulator(setup, args.games, workers)
        print(
            f"simulate best vs random, {workers} worker(s): {rate:,.0f} games/minute, "
            f"{per_action:.1f} us an action of CPU ({per_action / floor:.1f}x the baseline)"
        )


if __name__ == "__main__":
    main()
