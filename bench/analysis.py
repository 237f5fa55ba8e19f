"""What a game's analysis costs (``thegame_core.analysis``, the service's ``GET /v1/games/{id}/analysis``), against
one game of ``best`` at every seat played in the same run.

    .venv/bin/python bench/analysis.py [--rollouts N] [--game the-game|ninja] [--quiet]

Two games, each played to its end by ``greedy`` at every seat (a player who often chooses otherwise than ``best``,
so most decisions cost two values, as a person's game does): a 2-player game of The Game and a 3-player game of
Ninja, deal 1 of seed 1. Each is analysed as the service does it (``best``, ``--rollouts``: default the service's
``TG_ANALYSIS_ROLLOUTS`` default, on one core, without the service's rests). Prints, per game, its decisions (and
how many ``best`` shares), the analysis's wall time and CPU time, and the baseline: the CPU of one game of the same
deal with ``best`` at every seat; then the ratio, analysis CPU / baseline CPU (the analysis costs that many games
of ``best``). Progress of each analysis on standard error when it is a terminal.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import thegame_core as tg
from thegame_core.analysis import DEFAULT_ROLLOUTS, analyse
from thegame_core.bots import create_bot
from thegame_core.progress import Progress, wanted
from thegame_core.simulate import derive_seed, play_out

GAMES = (("the-game", 2), ("ninja", 3))


def played(game: str, players: int, bot: str) -> tuple[dict[str, Any], float]:
    """Deal 1 of seed 1 (the simulator's) played to its end by ``bot`` at every seat: its replay record and the CPU
    it took."""
    state = tg.new_game(game, players, seed=derive_seed(1, 1))
    bots = [create_bot(bot, game=game, seed=derive_seed(1, 1, seat)) for seat in range(players)]
    started = time.process_time()
    end = play_out(state, bots, [bot] * players, f"{game}, deal 1", None)
    return end.replay_record(), time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--game", choices=[game for game, _ in GAMES], help="only this game (default: both)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    args = parser.parse_args()
    print(f"rollouts per choice: {args.rollouts} (best's choices against greedy's games)")
    for game, players in GAMES:
        if args.game not in (None, game):
            continue
        record, _ = played(game, players, "greedy")
        _, baseline = played(game, players, "best")
        progress = Progress("decisions") if wanted(args.quiet, False) else None
        wall, cpu = time.perf_counter(), time.process_time()
        analysis = analyse(record, "best", args.rollouts, seed=1, progress=progress)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        same = sum(decision.same for decision in analysis.decisions)
        print(
            f"{game}, {players} players: {len(record['actions'])} actions, {len(analysis.decisions)} decisions "
            f"({same} as best's): wall {wall:.1f} s, CPU {cpu:.1f} s; baseline (one game of best) CPU "
            f"{baseline:.3f} s; ratio {cpu / baseline:.0f}"
        )


if __name__ == "__main__":
    main()
