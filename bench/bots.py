"""The results table of the bots: win rate (95% Wilson interval) and mean cards left, per player count.

    .venv/bin/python bench/bots.py --games 2000 --seed 1                       # every bot, standard rules
    .venv/bin/python bench/bots.py --bots best --presets expert expert_small_hand --games 1000
    .venv/bin/python bench/bots.py --timing --games 50                          # decision time of best

Rows are Markdown, ready for docs/bots.md. ``--timing`` plays ``--games`` games per player count in
this process and reports the median and 95th percentile of the time ``best`` takes per turn.
"""

from __future__ import annotations

import argparse
import statistics
import time

import thegame_core as tg
from thegame_core.bots import create_bot
from thegame_core.progress import on_terminal
from thegame_core.simulate import Setup, simulate


def results_row(bot: str, players: int, preset: str, games: int, seed: int, workers: int) -> str:
    setup = Setup(players=players, bots=(bot,), seed=seed, options={"preset": preset})
    summary = simulate(setup, games, workers, on_terminal())
    low, high = summary.win_interval
    return (
        f"| {bot} | {preset} | {players} | {summary.win_rate:.1%} | {low:.1%}-{high:.1%} "
        f"| {summary.mean_score:.2f} | {games} | {seed} |"
    )


def turn_times(players: int, games: int, seed: int) -> list[float]:
    """Seconds ``best`` took for each of its turns over ``games`` games."""
    times: list[float] = []
    progress = on_terminal()
    for game in range(games):
        progress(game, games)
        state = tg.new_game("the-game", players=players, seed=seed + game)
        bots = [create_bot("best", seed=seat) for seat in range(players)]
        while state.status == "playing":
            seat = state.current_seat
            observation = state.observe(seat)
            started = time.perf_counter()
            actions = bots[seat].act(observation)
            times.append(time.perf_counter() - started)
            state = state.apply_all(actions)
    progress(games, games)
    return times


def timing_row(players: int, games: int, seed: int) -> str:
    times = sorted(turn_times(players, games, seed))
    p95 = times[int(0.95 * (len(times) - 1))]
    return (
        f"| {players} | {len(times)} | {statistics.median(times) * 1000:.2f} | {p95 * 1000:.2f} "
        f"| {times[-1] * 1000:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", nargs="+", default=["random", "greedy", "best"])
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--presets", nargs="+", default=["standard"])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timing", action="store_true", help="time best's decisions instead")
    args = parser.parse_args()
    if args.timing:
        print("| players | turns | median ms | p95 ms | max ms |\n|---|---|---|---|---|")
        for players in args.players:
            print(timing_row(players, args.games, args.seed), flush=True)
        return
    print("| bot | preset | players | win rate | 95% interval | mean cards left | deals | seed |")
    print("|---|---|---|---|---|---|---|---|")
    for preset in args.presets:
        for bot in args.bots:
            for players in args.players:
                print(results_row(bot, players, preset, args.games, args.seed, args.workers), flush=True)


if __name__ == "__main__":
    main()
