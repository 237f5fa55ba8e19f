"""What the fast analysis (``greedy`` playing every seat of each playout, the default) costs in quality against
today's (``best`` playing them, its own searches inside every playout): on recorded games of each game, how often
both name the same three costliest moves and the same best choice, and each one's CPU and wall time.

    .venv/bin/python bench/analysis_agreement.py [--games 50] [--game the-game|ninja|bataille-corse] [--rollouts 8]

Game ``i`` is deal ``i`` of seed 1 played to its end by ``greedy`` at every seat (The Game and Bataille corse at 2
players, Ninja at 3), analysed twice with the same seed (``best`` choosing, the same deals of the hidden cards and
the same bot seeds): ``--playout best`` (today's) and ``greedy``. Per game it prints one line; at the end, per game
kind: the share of games whose three costliest moves (largest positive cost) are the same set, the mean overlap of
those sets, the share of decisions both judge alike (worse than best's or not), the share of decisions where both
name the same best choice, and each analysis's CPU and wall time (CPU: this process alone; the machine is shared).
Progress (decisions, their rate and the time left) on standard error.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any

import thegame_core as tg
from thegame_core.analysis import DEFAULT_ROLLOUTS, Analysis, plan
from thegame_core.bots import create_bot
from thegame_core.progress import Progress
from thegame_core.simulate import derive_seed, play_out

GAMES = {"the-game": 2, "ninja": 3, "bataille-corse": 2}
TOP = 3


def recorded(game: str, players: int, deal: int) -> dict[str, Any]:
    """Deal ``deal`` of seed 1 played to its end by ``greedy`` at every seat: its replay record."""
    state = tg.new_game(game, players, seed=derive_seed(1, deal))
    bots = [create_bot("greedy", game=game, seed=derive_seed(1, deal, seat)) for seat in range(players)]
    race = __import__("random").Random(derive_seed(1, deal, "race")) if game == "bataille-corse" else None
    return play_out(state, bots, ["greedy"] * players, f"{game}, deal {deal}", race).replay_record()  # type: ignore[no-any-return]


def costliest(analysis: Analysis) -> set[int]:
    ranked = sorted(range(len(analysis.decisions)), key=lambda index: -analysis.decisions[index].cost)
    return {index for index in ranked[:TOP] if analysis.decisions[index].cost > 0}


@dataclass
class Tally:
    games: int = 0
    same_top: int = 0
    overlap: float = 0.0
    decisions: int = 0
    same_verdict: int = 0
    same_best: int = 0
    cpu: dict[str, float] = field(default_factory=lambda: {"best": 0.0, "greedy": 0.0})
    wall: dict[str, float] = field(default_factory=lambda: {"best": 0.0, "greedy": 0.0})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game (default: all three)")
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    args = parser.parse_args()
    kinds = [kind for kind in GAMES if args.game in (None, kind)]
    records = {kind: [recorded(kind, GAMES[kind], deal) for deal in range(1, args.games + 1)] for kind in kinds}
    plans = {kind: [plan(record, "best", args.rollouts, seed=1) for record in records[kind]] for kind in kinds}
    total = 2 * sum(len(work.spans) for works in plans.values() for work in works)
    progress, done = Progress("decisions", every=10), 0
    tallies = {kind: Tally() for kind in kinds}
    for kind in kinds:
        tally = tallies[kind]
        for deal, record in enumerate(records[kind], 1):
            analyses = {}
            for playout in ("best", "greedy"):
                work = plan(record, "best", args.rollouts, seed=1, playout=playout)
                wall, cpu = time.perf_counter(), time.process_time()
                decisions = []
                for index in range(len(work.spans)):
                    decisions.append(work.decision(index))
                    done += 1
                    progress(done, total)
                tally.cpu[playout] += time.process_time() - cpu
                tally.wall[playout] += time.perf_counter() - wall
                analyses[playout] = work.assemble(decisions)
            today, fast = analyses["best"], analyses["greedy"]
            tops = costliest(today), costliest(fast)
            pairs = list(zip(today.decisions, fast.decisions, strict=True))
            tally.games += 1
            tally.same_top += tops[0] == tops[1]
            tally.overlap += len(tops[0] & tops[1]) / max(1, len(tops[0]))
            tally.decisions += len(pairs)
            tally.same_verdict += sum((a.cost > 0) == (b.cost > 0) for a, b in pairs)
            tally.same_best += sum(a.best == b.best for a, b in pairs)
            print(
                f"{kind} deal {deal}: {len(pairs)} decisions, costliest today {sorted(tops[0])}, fast {sorted(tops[1])}"
            )
    print(f"rollouts per choice: {args.rollouts}; chooser: best; today's playout: best; fast playout: greedy")
    print(
        "| game | games | same 3 costliest | overlap of the 3 | same verdict | same best choice | CPU today (s) |"
        " CPU fast (s) | wall today (s) | wall fast (s) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, tally in tallies.items():
        print(
            f"| {kind} | {tally.games} | {tally.same_top / tally.games:.0%} | {tally.overlap / tally.games:.0%} | "
            f"{tally.same_verdict / tally.decisions:.0%} | {tally.same_best / tally.decisions:.0%} | "
            f"{tally.cpu['best']:.1f} | {tally.cpu['greedy']:.1f} | "
            f"{tally.wall['best']:.1f} | {tally.wall['greedy']:.1f} |"
        )


if __name__ == "__main__":
    main()
