"""What the fast analysis (``greedy`` playing every seat of each playout, stopped at the horizon in a game that
estimates: the defaults) costs in quality against the slow one it replaced (``best`` playing them, its own searches
inside every playout, to the end): on recorded games of each game, how often both name the same three costliest
moves and the same best choice, and each one's CPU and wall time.

    .venv/bin/python bench/analysis_agreement.py [--games 50] [--first 1] [--game the-game|ninja|bataille-corse]
                                                 [--rollouts 8] [--noise] [--to-the-end]

Game ``i`` is deal ``i`` of seed 1 played to its end by ``greedy`` at every seat (The Game and Bataille corse at 2
players, Ninja at 3), analysed with ``best`` choosing: the slow one ("today", ``best`` playouts to the end, seed 1)
and the fast one (``greedy`` playouts, the default horizon, seed 1: the same deals of the hidden cards and bot
seeds). ``--games N --first F``: deals F to F + N - 1 (a long run in pieces). With ``--noise``, the slow one again
with seed 2: how far it agrees with itself, the most any faster one can be expected to; with ``--to-the-end``, the
fast one without its horizon (``greedy`` playouts to the end): what the horizon alone changes. An interrupt
(``kill -INT``, Ctrl-C; a run started in the background too) stops it with the figures of the games finished.

Per game one line; then per game kind and pair: the share of games whose three costliest moves (largest positive
cost) are the same set, the mean share of today's three that the other names, the share of decisions both judge
alike (worse than best's or not), the share of decisions where both name the same best choice, and the CPU and wall
time of each analysis (CPU: this process alone, as the machine is shared). Progress (decisions, rate, time left)
on standard error.
"""

from __future__ import annotations

import argparse
import random
import signal
import time
from dataclasses import dataclass
from typing import Any

import thegame_core as tg
from thegame_core.analysis import DEFAULT_HORIZON, DEFAULT_ROLLOUTS, Analysis, plan
from thegame_core.bots import create_bot
from thegame_core.progress import Progress
from thegame_core.simulate import derive_seed, play_out

GAMES = {"the-game": 2, "ninja": 3, "bataille-corse": 2}
TOP = 3
#: name -> (playout, seed, horizon) of each analysis compared; the options ask for the last two.
RUNS = {
    "today": ("best", 1, None),
    "fast": ("greedy", 1, DEFAULT_HORIZON),
    "today again": ("best", 2, None),
    "fast to the end": ("greedy", 1, None),
}


def recorded(game: str, players: int, deal: int) -> dict[str, Any]:
    """Deal ``deal`` of seed 1 played to its end by ``greedy`` at every seat: its replay record."""
    state = tg.new_game(game, players, seed=derive_seed(1, deal))
    bots = [create_bot("greedy", game=game, seed=derive_seed(1, deal, seat)) for seat in range(players)]
    race = random.Random(derive_seed(1, deal, "race")) if game == "bataille-corse" else None
    end = play_out(state, bots, ["greedy"] * players, f"{game}, deal {deal}", race)
    return end.replay_record()  # type: ignore[no-any-return]


def costliest(analysis: Analysis) -> set[int]:
    ranked = sorted(range(len(analysis.decisions)), key=lambda index: -analysis.decisions[index].cost)
    return {index for index in ranked[:TOP] if analysis.decisions[index].cost > 0}


@dataclass
class Agreement:
    """How far one analysis agrees with today's, summed over games."""

    games: int = 0
    same_top: int = 0
    overlap: float = 0.0
    decisions: int = 0
    same_verdict: int = 0
    same_best: int = 0

    def add(self, today: Analysis, other: Analysis) -> None:
        tops = costliest(today), costliest(other)
        pairs = list(zip(today.decisions, other.decisions, strict=True))
        self.games += 1
        self.same_top += tops[0] == tops[1]
        self.overlap += len(tops[0] & tops[1]) / max(1, len(tops[0]))
        self.decisions += len(pairs)
        self.same_verdict += sum((a.cost > 0) == (b.cost > 0) for a, b in pairs)
        self.same_best += sum(a.best == b.best for a, b in pairs)

    def row(self) -> str:
        if not self.games:
            return "0 | | | |"
        return (
            f"{self.games} | {self.same_top / self.games:.0%} | {self.overlap / self.games:.0%} | "
            f"{self.same_verdict / self.decisions:.0%} | {self.same_best / self.decisions:.0%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first", type=int, default=1, help="the first deal (default: 1)")
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game (default: all three)")
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--noise", action="store_true", help="also today's analysis again with another seed")
    parser.add_argument("--to-the-end", action="store_true", help="also the fast one without its horizon")
    args = parser.parse_args()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a shell ignores it in the jobs it puts in the background
    asked = {"today again": args.noise, "fast to the end": args.to_the_end}
    runs = {name: run for name, run in RUNS.items() if asked.get(name, True)}
    kinds = [kind for kind in GAMES if args.game in (None, kind)]
    deals = range(args.first, args.first + args.games)
    records = {kind: [recorded(kind, GAMES[kind], deal) for deal in deals] for kind in kinds}
    total = len(runs) * sum(len(plan(record).spans) for kind in kinds for record in records[kind])
    progress, done = Progress("decisions", every=10), 0
    cpu = {(kind, name): 0.0 for kind in kinds for name in runs}
    wall = dict(cpu)
    agreements = {(kind, name): Agreement() for kind in kinds for name in runs if name != "today"}
    try:
        for kind in kinds:
            for deal, record in enumerate(records[kind], args.first):
                analyses, times = {}, {}
                for name, (playout, seed, horizon) in runs.items():
                    work = plan(record, "best", args.rollouts, seed=seed, playout=playout, horizon=horizon)
                    started, used = time.perf_counter(), time.process_time()
                    decisions = []
                    for index in range(len(work.spans)):
                        decisions.append(work.decision(index))
                        done += 1
                        progress(done, total)
                    analyses[name] = work.assemble(decisions)
                    times[name] = time.process_time() - used, time.perf_counter() - started
                for name, analysis in analyses.items():  # only once the game's every analysis is done
                    cpu[kind, name] += times[name][0]
                    wall[kind, name] += times[name][1]
                    if name != "today":
                        agreements[kind, name].add(analyses["today"], analysis)
                tops = {name: sorted(costliest(analysis)) for name, analysis in analyses.items()}
                print(f"{kind} deal {deal}: {len(work.spans)} decisions, costliest {tops}", flush=True)
    except KeyboardInterrupt:
        print("stopped: the figures below are those of the games finished")
    print(
        f"rollouts per choice: {args.rollouts}; chooser: best; "
        + "; ".join(f"{n}: {p}, seed {s}, horizon {h}" for n, (p, s, h) in runs.items())
    )
    print("| game | against today's | games | same 3 costliest | today's 3 named | same verdict | same best choice |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for (kind, name), agreement in agreements.items():
        print(f"| {kind} | {name} | {agreement.row()} |")
    print("| game | analysis | CPU (s) | wall (s) |")
    print("|---|---|---:|---:|")
    for (kind, name), seconds in cpu.items():
        print(f"| {kind} | {name} | {seconds:.1f} | {wall[kind, name]:.1f} |")


if __name__ == "__main__":
    main()
