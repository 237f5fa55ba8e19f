"""What the fast analysis (``greedy`` playing every seat of each playout, the default) costs in quality against
today's (``best`` playing them, its own searches inside every playout): on recorded games of each game, how often
both name the same three costliest moves and the same best choice, and each one's CPU and wall time.

    .venv/bin/python bench/analysis_agreement.py [--games 50] [--game the-game|ninja|bataille-corse] [--rollouts 8]
                                                 [--noise]

Game ``i`` is deal ``i`` of seed 1 played to its end by ``greedy`` at every seat (The Game and Bataille corse at 2
players, Ninja at 3), analysed with ``best`` choosing: today's (``--playout best``, seed 1) and the fast one
(``greedy``, seed 1: the same deals of the hidden cards and bot seeds). With ``--noise``, today's again with seed 2:
how far today's analysis agrees with itself, the most any faster one can be expected to. Per game one line; then
per game kind and pair: the share of games whose three costliest moves (largest positive cost) are the same set, the
mean share of today's three that the other names, the share of decisions both judge alike (worse than best's or
not), the share of decisions where both name the same best choice, and the CPU and wall time of each analysis (CPU:
this process alone, as the machine is shared). Progress (decisions, rate, time left) on standard error.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from typing import Any

import thegame_core as tg
from thegame_core.analysis import DEFAULT_ROLLOUTS, Analysis, plan
from thegame_core.bots import create_bot
from thegame_core.progress import Progress
from thegame_core.simulate import derive_seed, play_out

GAMES = {"the-game": 2, "ninja": 3, "bataille-corse": 2}
TOP = 3
#: name -> (playout, seed) of each analysis compared.
RUNS = {"today": ("best", 1), "fast": ("greedy", 1), "today again": ("best", 2)}


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
        return (
            f"{self.games} | {self.same_top / self.games:.0%} | {self.overlap / self.games:.0%} | "
            f"{self.same_verdict / self.decisions:.0%} | {self.same_best / self.decisions:.0%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game (default: all three)")
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--noise", action="store_true", help="also today's analysis again with another seed")
    args = parser.parse_args()
    runs = {name: run for name, run in RUNS.items() if args.noise or name != "today again"}
    kinds = [kind for kind in GAMES if args.game in (None, kind)]
    records = {kind: [recorded(kind, GAMES[kind], deal) for deal in range(1, args.games + 1)] for kind in kinds}
    total = len(runs) * sum(len(plan(record).spans) for kind in kinds for record in records[kind])
    progress, done = Progress("decisions", every=10), 0
    cpu = {(kind, name): 0.0 for kind in kinds for name in runs}
    wall = dict(cpu)
    agreements = {(kind, name): Agreement() for kind in kinds for name in runs if name != "today"}
    for kind in kinds:
        for deal, record in enumerate(records[kind], 1):
            analyses = {}
            for name, (playout, seed) in runs.items():
                work = plan(record, "best", args.rollouts, seed=seed, playout=playout)
                started, used = time.perf_counter(), time.process_time()
                decisions = []
                for index in range(len(work.spans)):
                    decisions.append(work.decision(index))
                    done += 1
                    progress(done, total)
                cpu[kind, name] += time.process_time() - used
                wall[kind, name] += time.perf_counter() - started
                analyses[name] = work.assemble(decisions)
            for name, analysis in analyses.items():
                if name != "today":
                    agreements[kind, name].add(analyses["today"], analysis)
            tops = {name: sorted(costliest(analysis)) for name, analysis in analyses.items()}
            print(f"{kind} deal {deal}: {len(work.spans)} decisions, costliest {tops}", flush=True)
    print(
        f"rollouts per choice: {args.rollouts}; chooser: best; "
        + "; ".join(f"{n}: {p}, seed {s}" for n, (p, s) in runs.items())
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
