"""What the fast analysis (``greedy`` playing every seat of each playout, stopped at the horizon in a game that
estimates: the defaults) costs in quality against the slow one it replaced (``best`` playing them, its own searches
inside every playout, to the end): on recorded games of each game, how often both name the same three costliest
moves and the same best choice, and each one's CPU and wall time.

    .venv/bin/python bench/analysis_agreement.py [--games 50] [--first 1] [--game the-game|ninja|bataille-corse]
                                                 [--rollouts 8] [--noise] [--to-the-end] [--json FILE]
    .venv/bin/python bench/analysis_agreement.py --sum FILE [FILE ...]

Game ``i`` is deal ``i`` of seed 1 played to its end by ``greedy`` at every seat (The Game and Bataille corse at 2
players, Ninja at 3), analysed with ``best`` choosing: the slow one ("today", ``best`` playouts to the end, seed 1)
and the fast one (``greedy`` playouts, the default horizon, seed 1: the same deals of the hidden cards and bot
seeds). ``--games N --first F``: deals F to F + N - 1 (a long run in pieces). With ``--noise``, the slow one again
with seed 2: how far it agrees with itself, the most any faster one can be expected to; with ``--to-the-end``, the
fast one without its horizon (``greedy`` playouts to the end): what the horizon alone changes. An interrupt
(``kill -INT``, Ctrl-C; a run started in the background too) stops it with the figures of the games finished.

Per game one line, with its figures (and with ``--json FILE`` the same as one JSON line appended to FILE as soon
as the game is done, so that a run in pieces, or one stopped, loses nothing); then per game kind and pair: the
share of games whose three costliest moves (largest positive cost) are the same set, the mean share of today's three
that the other names, the share of decisions both judge alike (worse than best's or not), the share of decisions
where both name the same best choice, and the CPU and wall time of each analysis (CPU: this process alone, as the
machine is shared). Progress (decisions, rate, time left) on standard error. ``--sum FILE ...`` prints only those
totals, for the games of files ``--json`` wrote (a game found twice counts once: its last line).
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import thegame_core as tg
from thegame_core.analysis import DEFAULT_HORIZON, DEFAULT_ROLLOUTS, Analysis, plan
from thegame_core.bots import create_bot
from thegame_core.progress import Progress
from thegame_core.simulate import derive_seed, play_out

GAMES = {"the-game": 2, "ninja": 3, "bataille-corse": 2}
TOP = 3
Run = tuple[str, int, int | None]
#: name -> (playout, seed, horizon) of each analysis compared; the options ask for the last two.
RUNS: dict[str, Run] = {
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


def compare(today: Analysis, other: Analysis) -> dict[str, Any]:
    """How far ``other`` agrees with ``today`` on one game: the same three costliest, the share of today's three it
    names, and the decisions judged alike and with the same best choice (counts)."""
    tops = costliest(today), costliest(other)
    pairs = list(zip(today.decisions, other.decisions, strict=True))
    return {
        "same_top": tops[0] == tops[1],
        "overlap": len(tops[0] & tops[1]) / max(1, len(tops[0])),
        "same_verdict": sum((a.cost > 0) == (b.cost > 0) for a, b in pairs),
        "same_best": sum(a.best == b.best for a, b in pairs),
    }


@dataclass
class Agreement:
    """How far one analysis agrees with today's, summed over games."""

    games: int = 0
    same_top: int = 0
    overlap: float = 0.0
    decisions: int = 0
    same_verdict: int = 0
    same_best: int = 0
    deals: list[int] = field(default_factory=list)

    def add(self, deal: int, decisions: int, figures: dict[str, Any]) -> None:
        self.games += 1
        self.same_top += figures["same_top"]
        self.overlap += figures["overlap"]
        self.decisions += decisions
        self.same_verdict += figures["same_verdict"]
        self.same_best += figures["same_best"]
        self.deals.append(deal)

    def row(self) -> str:
        if not self.games:
            return "0 | | | | |"
        return (
            f"{self.games} | {self.decisions:,} | {self.same_top / self.games:.0%} | {self.overlap / self.games:.0%} | "
            f"{self.same_verdict / self.decisions:.0%} | {self.same_best / self.decisions:.0%}"
        )


def game_line(result: dict[str, Any]) -> str:
    """One game's figures in a line."""
    parts = [
        f"{result['game']} deal {result['deal']}: {result['decisions']} decisions, costliest {result['costliest']}"
    ]
    for name, figures in result["agreement"].items():
        parts.append(
            f"{name}: same 3 {'yes' if figures['same_top'] else 'no'}, named {figures['overlap']:.0%}, "
            f"same verdict {figures['same_verdict']}, same best {figures['same_best']}"
        )
    parts.append("CPU " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in result["cpu"].items()))
    return "; ".join(parts)


def totals(results: Iterable[dict[str, Any]]) -> str:
    """The tables of agreement and time of these games, per game kind (and playouts per choice)."""
    agreements: dict[tuple[str, str], Agreement] = {}
    cpu: dict[tuple[str, str], float] = {}
    wall: dict[tuple[str, str], float] = {}
    for result in results:
        kind = f"{result['game']}, {result['rollouts']} playouts"
        for name, figures in result["agreement"].items():
            agreements.setdefault((kind, name), Agreement()).add(result["deal"], result["decisions"], figures)
        for name, seconds in result["cpu"].items():
            cpu[kind, name] = cpu.get((kind, name), 0.0) + seconds
            wall[kind, name] = wall.get((kind, name), 0.0) + result["wall"][name]
    lines = [
        "| game | against today's | games | decisions | same 3 costliest | today's 3 named | same verdict "
        "| same best choice |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
        *(f"| {kind} | {name} | {agreement.row()} |" for (kind, name), agreement in agreements.items()),
        *(f"deals of {kind} against {name}: {spans(a.deals)}" for (kind, name), a in agreements.items()),
        "| game | analysis | CPU (s) | wall (s) |",
        "|---|---|---:|---:|",
        *(f"| {kind} | {name} | {seconds:.1f} | {wall[kind, name]:.1f} |" for (kind, name), seconds in cpu.items()),
    ]
    return "\n".join(lines)


def spans(deals: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``1-3, 5``."""
    ranges: list[list[int]] = []
    for deal in sorted(deals):
        if ranges and deal == ranges[-1][1] + 1:
            ranges[-1][1] = deal
        else:
            ranges.append([deal, deal])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


def read(paths: list[Path]) -> list[dict[str, Any]]:
    """The games of ``--json`` files, a game found twice (the same kind, deal and playouts) once: its last line."""
    games = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                result = json.loads(line)
                games[result["game"], result["deal"], result["rollouts"]] = result
    return list(games.values())


def compared(
    kind: str, deal: int, record: dict[str, Any], runs: dict[str, Run], rollouts: int, tick: Callable[[], None]
) -> dict[str, Any]:
    """One game analysed every way of ``runs``: its figures (``game_line``)."""
    analyses, cpu, wall = {}, {}, {}
    for name, (playout, seed, horizon) in runs.items():
        work = plan(record, "best", rollouts, seed=seed, playout=playout, horizon=horizon)
        started, used = time.perf_counter(), time.process_time()
        decisions = []
        for index in range(len(work.spans)):
            decisions.append(work.decision(index))
            tick()
        analyses[name] = work.assemble(decisions)
        cpu[name], wall[name] = time.process_time() - used, time.perf_counter() - started
    return {
        "game": kind,
        "deal": deal,
        "rollouts": rollouts,
        "decisions": len(work.spans),
        "costliest": {name: sorted(costliest(analysis)) for name, analysis in analyses.items()},
        "agreement": {name: compare(analyses["today"], a) for name, a in analyses.items() if name != "today"},
        "cpu": cpu,
        "wall": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first", type=int, default=1, help="the first deal (default: 1)")
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game (default: all three)")
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    parser.add_argument("--noise", action="store_true", help="also today's analysis again with another seed")
    parser.add_argument("--to-the-end", action="store_true", help="also the fast one without its horizon")
    parser.add_argument("--json", type=Path, help="append each game's figures to this file, one JSON line a game")
    parser.add_argument("--sum", type=Path, nargs="+", help="only print the totals of these --json files")
    args = parser.parse_args()
    if args.sum:
        print(totals(read(args.sum)))
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a shell ignores it in the jobs it puts in the background
    asked = {"today again": args.noise, "fast to the end": args.to_the_end}
    runs = {name: run for name, run in RUNS.items() if asked.get(name, True)}
    kinds = [kind for kind in GAMES if args.game in (None, kind)]
    deals = range(args.first, args.first + args.games)
    records = {kind: [recorded(kind, GAMES[kind], deal) for deal in deals] for kind in kinds}
    total = len(runs) * sum(len(plan(record).spans) for kind in kinds for record in records[kind])
    progress, done = Progress("decisions", every=10), 0

    def tick() -> None:
        nonlocal done
        done += 1
        progress(done, total)

    results = []
    try:
        for kind in kinds:
            for deal, record in enumerate(records[kind], args.first):
                result = compared(kind, deal, record, runs, args.rollouts, tick)
                results.append(result)
                print(game_line(result), flush=True)
                if args.json:
                    with args.json.open("a") as out:
                        out.write(json.dumps(result) + "\n")
    except KeyboardInterrupt:
        print("stopped: the figures below are those of the games finished")
    print(
        f"rollouts per choice: {args.rollouts}; chooser: best; "
        + "; ".join(f"{n}: {p}, seed {s}, horizon {h}" for n, (p, s, h) in runs.items())
    )
    print(totals(results))


if __name__ == "__main__":
    main()
