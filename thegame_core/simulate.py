"""Play many games with bots and summarize them (the ``simulate`` command).

Game ``i`` of a run with ``seed`` always gets the same deck and bot seeds, derived from
``(seed, i)``, so results are identical whatever the number of worker processes.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from .bots import create_bot
from .registry import get_game

CHUNK = 200  # games per task handed to a worker: large enough to amortize the hand-off


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, stable across processes and Python versions."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares."""

    game: str = "the-game"
    players: int = 2
    bot: str = "greedy"
    seed: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)


def play_one(setup: Setup, index: int) -> int:
    """Play game ``index`` of the run to its end; its score (cards not placed)."""
    state = get_game(setup.game).new_game(
        players=setup.players, seed=derive_seed(setup.seed, index), deck=None, options=setup.options, first_seat=0
    )
    bots = [
        create_bot(setup.bot, game=setup.game, seed=derive_seed(setup.seed, index, seat))
        for seat in range(setup.players)
    ]
    while state.status == "playing":
        seat = state.asking_order()[0]
        actions = bots[seat].act(state.observe(seat))
        if not actions:
            raise RuntimeError(f"bot {setup.bot!r} returned no action on its turn")
        state = state.apply_all(actions)
    return int(state.score)  # type: ignore[attr-defined]


def _play_chunk(setup: Setup, start: int, stop: int) -> list[int]:
    return [play_one(setup, index) for index in range(start, stop)]


def play_scores(setup: Setup, games: int, workers: int = 1) -> Iterator[list[int]]:
    """Scores of games ``0..games-1`` in order, a chunk at a time, on ``workers`` processes."""
    bounds = [(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    if workers <= 1:
        for start, stop in bounds:
            yield _play_chunk(setup, start, stop)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_play_chunk, setup, start, stop) for start, stop in bounds]
        for future in futures:
            yield future.result()


@dataclass(frozen=True)
class Summary:
    """Statistics of a run; ``win_interval`` is the 95% Wilson score interval of the win rate."""

    games: int
    wins: int
    win_rate: float
    win_interval: tuple[float, float]
    mean_score: float
    median_score: float
    histogram: dict[int, int]
    seconds: float
    games_per_second: float

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["win_interval"] = list(self.win_interval)
        data["histogram"] = {str(score): count for score, count in sorted(self.histogram.items())}
        return data


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval: well-behaved for rates near 0 and small samples."""
    if games == 0:
        return (0.0, 0.0)
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    margin = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - margin), min(1.0, centre + margin))


def summarize(scores: list[int], seconds: float) -> Summary:
    wins = scores.count(0)
    games = len(scores)
    return Summary(
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        win_interval=wilson_interval(wins, games),
        mean_score=statistics.fmean(scores) if scores else 0.0,
        median_score=statistics.median(scores) if scores else 0.0,
        histogram=dict(Counter(scores)),
        seconds=seconds,
        games_per_second=games / seconds if seconds > 0 else 0.0,
    )


def simulate(setup: Setup, games: int, workers: int = 1, progress: Callable[[int, int], None] | None = None) -> Summary:
    """Play ``games`` games of ``setup`` and summarize them; ``progress(done, total)`` after each chunk."""
    started = time.perf_counter()
    scores: list[int] = []
    for chunk in play_scores(setup, games, workers):
        scores.extend(chunk)
        if progress is not None:
            progress(len(scores), games)
    return summarize(scores, time.perf_counter() - started)


def progress_bar(done: int, total: int, width: int = 40) -> None:
    """A one-line progress bar on stderr."""
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def score_bins(histogram: Mapping[int, int], width: int = 5) -> list[tuple[str, int]]:
    """The histogram grouped for printing: 0 (a win) alone, then 1-5, 6-10, ..."""
    bins: Counter[int] = Counter()
    for score, count in histogram.items():
        bins[0 if score == 0 else (score - 1) // width + 1] += count
    return [("0" if b == 0 else f"{(b - 1) * width + 1}-{b * width}", bins[b]) for b in range(max(bins, default=0) + 1)]


def format_summary(setup: Setup, summary: Summary) -> str:
    """The human-readable report: rates, scores, a score histogram, speed."""
    low, high = summary.win_interval
    options = dict(setup.options) or "standard"
    lines = [
        f"game: {setup.game}  players: {setup.players}  bot: {setup.bot}  seed: {setup.seed}  options: {options}",
        f"games: {summary.games}",
        f"wins: {summary.wins}",
        f"win rate: {summary.win_rate:.2%} (95% interval {low:.2%} to {high:.2%})",
        f"mean score: {summary.mean_score:.2f}  median score: {summary.median_score:g}",
        "score histogram (cards left: games):",
    ]
    bins = score_bins(summary.histogram)
    peak = max((count for _, count in bins), default=1)
    for label, count in bins:
        lines.append(f"  {label:>7} {count:7d} {'#' * round(40 * count / peak)}")
    lines.append(f"games/second: {summary.games_per_second:.0f} ({summary.seconds:.2f} s)")
    return "\n".join(lines)
