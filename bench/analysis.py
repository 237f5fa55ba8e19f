"""What a game's analysis costs (``thegame_core.analysis``, the service's ``GET /v1/games/{id}/analysis``), against
one game of ``best`` at every seat played in the same run.

    .venv/bin/python bench/analysis.py [--rollouts N] [--playout greedy|best] [--horizon H] [--workers N] [--game G]
                                       [--deal D] [--quiet]

Three games, each played to its end by ``greedy`` at every seat (a player who often chooses otherwise than
``best``, so most decisions cost two values, as a person's game does): a 2-player game of The Game, a 3-player game
of Ninja and a 2-player game of Bataille corse, deal 1 of seed 1 (``--deal``: another; Bataille corse's deal 9 is a
short game, 96 actions, and deal 4 a long one, 2,398). Each is analysed as the service does it (``best`` choosing,
``--playout`` playing the playouts: default the service's, ``--rollouts``: default ``TG_ANALYSIS_ROLLOUTS``'s,
``--horizon``: the core's default, 0 for playouts to the end), split into ``TG_ANALYSIS_PARTS`` parts by decision
run by ``--workers`` processes (the job queue's workers; default 1, in this process). Prints, per game, its
decisions (and how many ``best`` shares), the analysis's wall time and CPU time (of every worker: the machine is
shared, so wall time says little), and the baseline: the CPU of one game of the same deal with ``best`` at every
seat; then the ratio, analysis CPU / baseline CPU. Progress of each analysis on standard error when it is a terminal.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import thegame_core as tg
from thegame_core.analysis import DEFAULT_HORIZON, DEFAULT_PLAYOUT, DEFAULT_ROLLOUTS, Decision, plan
from thegame_core.bots import create_bot
from thegame_core.progress import Progress, wanted
from thegame_core.simulate import derive_seed, play_out

GAMES = (("the-game", 2), ("ninja", 3), ("bataille-corse", 2))
PARTS = 8  # the service's TG_ANALYSIS_PARTS default


def played(game: str, players: int, bot: str, deal: int) -> tuple[dict[str, Any], float]:
    """Deal ``deal`` of seed 1 (the simulator's) played to its end by ``bot`` at every seat: its replay record and
    the CPU it took."""
    state = tg.new_game(game, players, seed=derive_seed(1, deal))
    bots = [create_bot(bot, game=game, seed=derive_seed(1, deal, seat)) for seat in range(players)]
    race = random.Random(derive_seed(1, deal, "race")) if game == "bataille-corse" else None
    started = time.process_time()
    end = play_out(state, bots, [bot] * players, f"{game}, deal {deal}", race)
    return end.replay_record(), time.process_time() - started


def part(record: dict[str, Any], rollouts: int, playout: str, horizon: int | None, index: int) -> list[Decision]:
    """Part ``index`` of ``PARTS``, as a worker of the service works it out."""
    work = plan(record, "best", rollouts, seed=1, playout=playout, horizon=horizon)
    return [work.decision(decision) for decision in range(index, len(work.spans), PARTS)]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--playout", default=DEFAULT_PLAYOUT, help=f"the playouts' bot (default: {DEFAULT_PLAYOUT})")
    parser.add_argument("--horizon", type=int, default=DEFAULT_HORIZON, help="0: playouts to the end")
    parser.add_argument("--workers", type=int, default=1, help="worker processes sharing the parts (default: 1)")
    parser.add_argument("--game", choices=[game for game, _ in GAMES], help="only this game (default: all three)")
    parser.add_argument("--deal", type=int, default=1, help="the deal of seed 1 played (default: 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    args = parser.parse_args()
    horizon = args.horizon or None
    print(
        f"rollouts per choice: {args.rollouts}, playout: {args.playout}, horizon: {horizon}, {PARTS} parts over "
        f"{args.workers} workers"
    )
    for game, players in GAMES:
        if args.game not in (None, game):
            continue
        record, _ = played(game, players, "greedy", args.deal)
        _, baseline = played(game, players, "best", args.deal)
        work = plan(record, "best", args.rollouts, seed=1, playout=args.playout, horizon=horizon)
        progress = Progress("parts") if wanted(args.quiet, False) else None
        wall, cpu, children = time.perf_counter(), time.process_time(), children_cpu()
        with ProcessPoolExecutor(args.workers) as pool:
            futures = [pool.submit(part, record, args.rollouts, args.playout, horizon, index) for index in range(PARTS)]
            decisions = []
            for done, future in enumerate(futures, 1):
                decisions += future.result()
                if progress is not None:
                    progress(done, PARTS)
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu + children_cpu() - children
        analysis = work.assemble(sorted(decisions, key=lambda decision: decision.start))
        same = sum(decision.same for decision in analysis.decisions)
        print(
            f"{game}, {players} players, deal {args.deal}: {len(record['actions'])} actions, "
            f"{len(analysis.decisions)} decisions ({same} as best's): wall {wall:.1f} s, CPU {cpu:.1f} s; "
            f"baseline (one game of best) CPU {baseline:.3f} s; ratio {cpu / baseline:.0f}"
        )


if __name__ == "__main__":
    main()
