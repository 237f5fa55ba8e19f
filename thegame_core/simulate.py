"""Play many games of any registered game with any mix of bots, and summarize them (``simulate``).

A game is refereed through the protocol only: the seats of ``state.asking_order()`` are asked in
turn; the first bot that returns actions has them applied (``apply_all``) and the asking starts
again from the first seat. A seat the game waits for may not decline.

Game ``i`` of a run with ``seed`` always gets the same deal and bot seeds, derived from
``(seed, i)`` and ``(seed, i, seat)``, so results are identical whatever the number of worker
processes. With ``duplicate``, each deal is played once per seat rotation (rotation ``r`` seats
bot ``bots[(seat + r) % players]`` at ``seat``); a bot keeps its seed across the rotations of a
deal, so only its seat changes, and rotation 0 is the game a plain run plays.

A real-time game (its registry entry says ``realtime``: Bataille corse) is raced instead: every seat of the
asking order is asked, each bot that acts draws its delay from its reaction level (``reaction``), and the
soonest action is applied (ties by a seeded draw, never by seat); the others never arrive, as they would have
been stale. ``reactions`` gives each seat's level, ``latency_ms`` how much later each seat's actions arrive (a
client further away). The race keeps a clock in ms from the deal: each action is stamped with its arrival
(the game's ``received``) and a game's timer (Bataille corse's collection window closing) competes as the referee's
own action at its due time; while a timer runs, the actions already on their way keep their arrival (a window
gathers them), and the seats re-decide after every other change, as they always did.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .bots import create_bot
from .errors import GameError, InvalidSetup
from .outcome import EndStatus
from .reaction import DEFAULT_LEVEL, LEVELS, reaction
from .registry import get_game

CHUNK = 200  # at most this many games per task handed to a worker: enough to amortize the hand-off
#: Tasks per worker process: progress is reported after each one, so a run of slow games (Ninja's ``best``: a few
#: a second) still reports every few seconds; a task of fast games is still far longer than its hand-off.
TASKS_PER_WORKER = 100
MAX_ACTIONS = 100_000  # actions in one game before the simulator gives up on it
T = TypeVar("T")


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, stable across processes and Python versions."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares.

    ``bots`` names one bot per seat, or one name for every seat. ``duplicate`` plays each deal
    once per rotation of the bots round the table.
    """

    game: str = "the-game"
    players: int = 2
    bots: tuple[str, ...] = ("greedy",)
    seed: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    duplicate: bool = False
    reactions: tuple[str, ...] = ()
    latency_ms: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        bots: Any = self.bots
        object.__setattr__(self, "bots", (bots,) if isinstance(bots, str) else tuple(bots))
        reactions: Any = self.reactions
        object.__setattr__(self, "reactions", (reactions,) if isinstance(reactions, str) else tuple(reactions))
        object.__setattr__(self, "latency_ms", tuple(self.latency_ms))
        object.__setattr__(self, "options", dict(self.options))  # picklable for the workers

    @property
    def lineup(self) -> tuple[str, ...]:
        """One bot name per seat, as seated in rotation 0."""
        return self.seat_bots()

    @property
    def rotations(self) -> int:
        """Games played on each deal: ``players`` with ``duplicate``, else 1."""
        return self.players if self.duplicate else 1

    def seat_bots(self, rotation: int = 0) -> tuple[str, ...]:
        """The bot name at each seat in ``rotation``: seat ``s`` gets ``lineup[(s + rotation) % players]``."""
        return _seated(self.bots, self.players, rotation)

    def seat_levels(self, rotation: int = 0) -> tuple[str, ...]:
        """The reaction level of each seat in ``rotation``: a level moves with its bot."""
        return _seated(self.reactions or (DEFAULT_LEVEL,), self.players, rotation)

    def seat_latency(self, rotation: int = 0) -> tuple[int, ...]:
        """How much later (ms) each seat's actions arrive in ``rotation``: the latency moves with its bot."""
        return _seated(self.latency_ms or (0,), self.players, rotation)


def _seated(values: tuple[T, ...], players: int, rotation: int) -> tuple[T, ...]:
    """Seat by seat in ``rotation``, ``values`` given for the lineup (one for every seat, or one per seat of rotation
    0): seat ``s`` gets the value of ``(s + rotation) % players``."""
    if len(values) == 1:
        values *= players
    return tuple(values[(seat + rotation) % players] for seat in range(players))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game played: its deal and rotation, how it ended, and The Game's score (cards left) if it has one."""

    deal: int
    rotation: int
    status: EndStatus
    reason: str
    winner: int | None
    winner_bot: str | None
    turns: int
    actions: int
    score: int | None
    stats: tuple[tuple[str, int], ...] = ()  # the game's own counts (``state.stats()``), if it has them
    ranking: tuple[int, ...] = ()  # a competitive game's seats, best first (``Outcome.ranking``)


def check_setup(setup: Setup) -> None:
    """Raise ``GameError`` with a clear message unless ``setup`` can be played: the game exists, the
    options and preset are the game's, the players are allowed, there is one bot or one per seat and
    each bot exists. Creates one game and its bots to be sure."""
    game = get_game(setup.game)
    info = game.info
    known = {option.name for option in info.options} | {"preset"}
    unknown = sorted(set(setup.options) - known)
    if unknown:
        raise InvalidSetup(
            f"unknown option(s) for {setup.game}: {', '.join(unknown)}; options: {', '.join(sorted(known))}"
        )
    preset = setup.options.get("preset")
    if preset is not None and preset not in info.presets:
        raise InvalidSetup(f"unknown preset {preset!r} for {setup.game}; presets: {', '.join(info.presets)}")
    if type(setup.players) is not int or not info.min_players <= setup.players <= info.max_players:
        raise InvalidSetup(
            f"{setup.game} is played by {info.min_players} to {info.max_players} players, not {setup.players!r}"
        )
    if len(setup.bots) not in (1, setup.players):
        raise InvalidSetup(f"give one bot for every seat or one per seat ({setup.players}), not {len(setup.bots)}")
    realtime = game.realtime
    if setup.reactions:
        if not realtime:
            raise InvalidSetup(f"{setup.game} is not a real-time game: reaction levels do not apply")
        if len(setup.reactions) not in (1, setup.players) or not set(setup.reactions) <= set(LEVELS):
            raise InvalidSetup(f"give one reaction level for every seat or one per seat, among {', '.join(LEVELS)}")
    if setup.latency_ms:
        if not realtime:
            raise InvalidSetup(f"{setup.game} is not a real-time game: latencies do not apply")
        if len(setup.latency_ms) not in (1, setup.players) or any(
            type(ms) is not int or ms < 0 for ms in setup.latency_ms
        ):
            raise InvalidSetup("give one latency (ms, 0 or more) for every seat or one per seat")
    _start(setup, 0, 0)


def _start(setup: Setup, deal: int, rotation: int) -> tuple[Any, tuple[str, ...], list[Any]]:
    """Deal ``deal`` and seat its bots for ``rotation``: the state, each seat's bot name, the bots."""
    state = get_game(setup.game).new_game(
        players=setup.players,
        seed=derive_seed(setup.seed, deal),
        deck=None,
        options=setup.options,
        first_seat=0,
    )
    names = setup.seat_bots(rotation)
    bots = [
        create_bot(name, game=setup.game, seed=derive_seed(setup.seed, deal, (seat + rotation) % setup.players))
        for seat, name in enumerate(names)
    ]
    if setup.reactions:
        for bot, level in zip(bots, setup.seat_levels(rotation), strict=True):
            bot.reaction = reaction(level)  # type: ignore[attr-defined]
    return state, names, bots


@dataclass
class Race:
    """The referee of a real-time game: its clock (ms from the deal) and the actions on their way, each seat's
    ``(arrival, tie draw, actions)``; ``stamp`` is the game's ``received`` hook."""

    rng: random.Random
    stamp: Callable[[Any, int], Any]
    latency: Sequence[int] = ()
    now: float = 0.0
    coming: dict[int, tuple[float, float, Any]] = field(default_factory=dict)

    def soonest(self, state: Any, bots: Sequence[Any]) -> tuple[int | None, Any]:
        """The seat whose actions arrive first by its bot's drawn delay (and its latency), and those actions,
        stamped; or the game's timer (seat ``None``) if it falls due first."""
        fires = state.timer()
        kept = self.coming if fires is not None else None
        coming: dict[int, tuple[float, float, Any]] = {}
        self.coming, latency, rng = coming, self.latency, self.rng
        best: tuple[float, float, Any] | None = None if fires is None else (fires.due, -1.0, [fires.action])
        seat_of = None
        for seat in state.asking_order():
            plan = None if kept is None else kept.get(seat)
            if plan is None or not all(action in state.legal_actions(seat) for action in plan[2]):
                actions = bots[seat].act(state.observe(seat))
                if not actions:
                    if seat in state.waiting_for:
                        return seat, actions
                    continue
                delay = bots[seat].delay_ms(actions) + (latency[seat] if latency else 0)
                plan = (self.now + delay, rng.random(), actions)
            coming[seat] = plan
            if best is None or plan[:2] < best[:2]:
                best, seat_of = plan, seat  # a window closes before a slap at its close: its tie is -1
        if best is None:
            raise RuntimeError(f"no seat acted (asked: {list(state.asking_order())})")
        arrival, _, actions = best
        self.now = arrival
        if seat_of is None:
            return None, actions
        del coming[seat_of]
        stamp = self.stamp
        return seat_of, [stamp(action, int(arrival)) for action in actions]


def play_out(
    state: Any,
    bots: Sequence[Any],
    names: Sequence[str],
    where: str,
    race: random.Random | None,
    latency: Sequence[int] = (),
    until: int | None = None,
) -> Any:
    """``state`` played to its end by ``bots`` (one per seat, called ``names`` in errors), or until its version
    reaches ``until`` (then it may be unfinished; a turn-based bot's actions are applied whole): raced with ``race``
    for a real-time game (each seat's actions arriving ``latency`` ms later), else asked in turn; ``RuntimeError``
    naming the bot as ``play_game`` says."""
    referee = None if race is None else Race(race, get_game(state.game).received, latency)
    while state.outcome is None and (until is None or state.version < until):
        if state.version >= MAX_ACTIONS:
            raise RuntimeError(f"{where}: no end within {MAX_ACTIONS:,} actions (bots: {', '.join(names)})")
        if referee is not None:
            seat, actions = referee.soonest(state, bots)
            state = state.apply_all(actions) if seat is None else _applied(state, actions, where, names, seat)
            continue
        for seat in state.asking_order():
            actions = bots[seat].act(state.observe(seat))
            if actions:
                state = _applied(state, actions, where, names, seat)
                break
            if seat in state.waiting_for:
                raise RuntimeError(
                    f"{where}: bot {names[seat]!r} at seat {seat} declined although the game waits for it"
                )
        else:
            raise RuntimeError(
                f"{where}: no seat acted (asked: {list(state.asking_order())}, waiting: {sorted(state.waiting_for)})"
            )
    return state


def play_game(setup: Setup, deal: int, rotation: int = 0) -> GameRecord:
    """Play ``deal`` with the bots seated as in ``rotation`` to its end.

    Raises ``RuntimeError`` naming the bot if a bot declines while the game waits for it or sends
    an action the game refuses, and if the game has not ended within ``MAX_ACTIONS`` actions.
    """
    state, names, bots = _start(setup, deal, rotation)
    where = f"{setup.game}, deal {deal}" + (f", rotation {rotation}" if setup.duplicate else "")
    race = random.Random(derive_seed(setup.seed, deal, rotation, "race")) if _realtime(setup) else None
    state = play_out(state, bots, names, where, race, latency=setup.seat_latency(rotation))
    outcome = state.outcome
    score, stats = state.score, state.stats()
    return GameRecord(
        deal=deal,
        rotation=rotation,
        status=outcome.status,
        reason=outcome.reason,
        winner=outcome.winner,
        winner_bot=None if outcome.winner is None else names[outcome.winner],
        turns=state.turns,
        actions=state.version,
        score=score,
        stats=tuple(stats.items()),
        ranking=outcome.ranking,
    )


def _realtime(setup: Setup) -> bool:
    return get_game(setup.game).realtime


def _applied(state: Any, actions: Any, where: str, names: Sequence[str], seat: int) -> Any:
    """``state`` after a bot's ``actions``, or ``RuntimeError`` naming the bot if they are refused or missing."""
    if not actions:
        raise RuntimeError(f"{where}: bot {names[seat]!r} at seat {seat} declined although the game waits for it")
    try:
        return state.apply_all(actions)
    except GameError as error:
        raise RuntimeError(f"{where}: bot {names[seat]!r} at seat {seat} sent a refused action: {error}") from error


def _play_chunk(setup: Setup, start: int, stop: int) -> list[GameRecord]:
    rotations = setup.rotations
    return [play_game(setup, *divmod(index, rotations)) for index in range(start, stop)]


def play_records(setup: Setup, deals: int, workers: int = 1) -> Iterator[list[GameRecord]]:
    """Records of every game of ``deals`` deals (``deals * setup.rotations`` games), in order (deal,
    then rotation), a chunk at a time, on ``workers`` processes (forked where the platform can, so
    games and bots registered by the caller are known to them)."""
    games = deals * setup.rotations
    size = max(1, min(CHUNK, math.ceil(games / (max(workers, 1) * TASKS_PER_WORKER))))
    bounds = [(start, min(start + size, games)) for start in range(0, games, size)]
    if workers <= 1 or len(bounds) <= 1:
        for start, stop in bounds:
            yield _play_chunk(setup, start, stop)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=min(workers, len(bounds)), mp_context=context) as pool:
        futures = [pool.submit(_play_chunk, setup, start, stop) for start, stop in bounds]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval: well-behaved for rates near 0 and small samples."""
    if games == 0:
        return (0.0, 0.0)
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    margin = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - margin), min(1.0, centre + margin))


def mean_interval(values: Sequence[int], z: float = 1.959964) -> tuple[float, float]:
    """95% interval of the mean of ``values`` (normal approximation: fine for the hundreds of games of a run)."""
    if len(values) < 2:
        mean = float(values[0]) if values else 0.0
        return (mean, mean)
    mean, margin = statistics.fmean(values), z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean - margin, mean + margin)


@dataclass(frozen=True)
class SeatWins:
    """Games won from one seat, with the 95% Wilson interval of the rate (fair share: 1 / players)."""

    seat: int
    wins: int
    rate: float
    interval: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "wins": self.wins, "rate": self.rate, "interval": list(self.interval)}


@dataclass(frozen=True)
class BotWins:
    """Games won by one bot name, pooled over the ``seats`` it holds at each table; its fair share
    of the wins is ``seats / players``."""

    bot: str
    seats: int
    wins: int
    rate: float
    interval: tuple[float, float]
    fair_share: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seats": self.seats,
            "wins": self.wins,
            "rate": self.rate,
            "interval": list(self.interval),
            "fair_share": self.fair_share,
        }


@dataclass(frozen=True)
class Summary:
    """Statistics of a run.

    Every game: ``games`` (``deals`` times the rotations), ``outcomes`` (games by outcome reason),
    turns, speed. Cooperative games: ``wins`` (status ``"won"``), the win rate and its 95% Wilson
    interval, and the score figures when the game has a score (The Game: cards left). Competitive
    games: wins per seat, wins per bot name, and ``no_winner``. Figures of the other kind are ``None``.
    """

    setup: Setup
    cooperative: bool
    games: int
    deals: int
    outcomes: dict[str, int]
    mean_turns: float
    median_turns: float
    turns_interval: tuple[float, float]
    stats: dict[str, int]
    seconds: float
    games_per_second: float
    wins: int | None = None
    win_rate: float | None = None
    win_interval: tuple[float, float] | None = None
    mean_score: float | None = None
    median_score: float | None = None
    histogram: dict[int, int] | None = None
    seat_wins: tuple[SeatWins, ...] | None = None
    bot_wins: tuple[BotWins, ...] | None = None
    no_winner: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON object: the setup, the common figures, then those of the game's kind (no ``None``)."""
        setup = self.setup
        data: dict[str, Any] = {
            "game": setup.game,
            "players": setup.players,
            "bots": list(setup.lineup),
            "seed": setup.seed,
            "options": dict(setup.options),
            "duplicate": setup.duplicate,
            "cooperative": self.cooperative,
            "games": self.games,
            "deals": self.deals,
            "outcomes": dict(sorted(self.outcomes.items())),
            "mean_turns": self.mean_turns,
            "median_turns": self.median_turns,
            "turns_interval": list(self.turns_interval),
            "stats": self.stats or None,
            "reactions": list(setup.seat_levels()) if setup.reactions else None,
            "latency_ms": list(setup.seat_latency()) if setup.latency_ms else None,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_interval": None if self.win_interval is None else list(self.win_interval),
            "mean_score": self.mean_score,
            "median_score": self.median_score,
            "histogram": None
            if self.histogram is None
            else {str(score): count for score, count in sorted(self.histogram.items())},
            "seat_wins": None if self.seat_wins is None else [entry.to_dict() for entry in self.seat_wins],
            "bot_wins": None if self.bot_wins is None else [entry.to_dict() for entry in self.bot_wins],
            "no_winner": self.no_winner,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }
        return {key: value for key, value in data.items() if value is not None}


def summarize(setup: Setup, records: Sequence[GameRecord], seconds: float) -> Summary:
    """The statistics of ``records``, games of ``setup`` that took ``seconds``."""
    games = len(records)
    turns = [record.turns for record in records]
    cooperative = get_game(setup.game).info.cooperative
    common: dict[str, Any] = {
        "setup": setup,
        "cooperative": cooperative,
        "games": games,
        "deals": games // setup.rotations,
        "outcomes": dict(Counter(record.reason for record in records)),
        "mean_turns": statistics.fmean(turns) if turns else 0.0,
        "median_turns": statistics.median(turns) if turns else 0.0,
        "turns_interval": mean_interval(turns),
        "stats": dict(sum((Counter(dict(record.stats)) for record in records), Counter())),
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
    }
    if cooperative:
        wins = sum(record.status == "won" for record in records)
        scores = [record.score for record in records if record.score is not None]
        scored: dict[str, Any] = {}
        if scores and len(scores) == games:
            scored = {
                "mean_score": statistics.fmean(scores),
                "median_score": statistics.median(scores),
                "histogram": dict(Counter(scores)),
            }
        return Summary(
            **common,
            wins=wins,
            win_rate=wins / games if games else 0.0,
            win_interval=wilson_interval(wins, games),
            **scored,
        )
    by_seat = Counter(record.winner for record in records)
    by_bot = Counter(record.winner_bot for record in records)
    lineup = setup.lineup
    seat_wins = tuple(
        SeatWins(seat, by_seat[seat], by_seat[seat] / games if games else 0.0, wilson_interval(by_seat[seat], games))
        for seat in range(setup.players)
    )
    bot_wins = tuple(
        BotWins(
            bot,
            lineup.count(bot),
            by_bot[bot],
            by_bot[bot] / games if games else 0.0,
            wilson_interval(by_bot[bot], games),
            lineup.count(bot) / setup.players,
        )
        for bot in dict.fromkeys(lineup)
    )
    return Summary(**common, seat_wins=seat_wins, bot_wins=bot_wins, no_winner=by_seat[None])


def simulate(setup: Setup, games: int, workers: int = 1, progress: Callable[[int, int], None] | None = None) -> Summary:
    """Play ``games`` deals of ``setup`` (each ``setup.rotations`` times) and summarize them.

    Checks the setup first (``check_setup``: ``GameError``); ``progress(done, total)`` is called
    with counts of games once before the first game and after each chunk (``progress.Progress`` shows them).
    """
    check_setup(setup)
    started = time.perf_counter()
    total = games * setup.rotations
    records: list[GameRecord] = []
    if progress is not None:
        progress(0, total)
    for chunk in play_records(setup, games, workers):
        records.extend(chunk)
        if progress is not None:
            progress(len(records), total)
    return summarize(setup, records, time.perf_counter() - started)


def score_bins(histogram: Mapping[int, int], width: int = 5) -> list[tuple[str, int]]:
    """The histogram grouped for printing: 0 (a win) alone, then 1-5, 6-10, ..."""
    bins: Counter[int] = Counter()
    for score, count in histogram.items():
        bins[0 if score == 0 else (score - 1) // width + 1] += count
    return [("0" if b == 0 else f"{(b - 1) * width + 1}-{b * width}", bins[b]) for b in range(max(bins, default=0) + 1)]


def format_stats(stats: Mapping[str, int]) -> list[str]:
    """A game's own counts, grouped by the part of their name before ``:``, each with its share of its group
    (``piles won:by slap``, ``piles won:by challenge`` -> ``piles won: by slap 61.0%, by challenge 37.5%``)."""
    groups: dict[str, list[tuple[str, int]]] = {}
    for name, count in stats.items():
        group, _, item = name.partition(":")
        groups.setdefault(group, []).append((item, count))
    lines = []
    for group, items in groups.items():
        total = max(sum(count for _, count in items), 1)
        shares = ", ".join(f"{item} {count} ({count / total:.1%})" for item, count in items)
        lines.append(f"{group}: {shares}")
    return lines


def _rate(wins: int, rate: float, interval: tuple[float, float]) -> str:
    return f"{wins:7d}  {rate:7.2%} (95% interval {interval[0]:.2%} to {interval[1]:.2%})"


def format_summary(summary: Summary) -> str:
    """The human-readable report: the setup, games, outcomes, turns, then the rates of the game's kind, speed."""
    setup = summary.setup
    options = dict(setup.options) or "standard"
    bots = setup.bots[0] if len(set(setup.lineup)) == 1 else ",".join(setup.lineup)
    lines = [f"game: {setup.game}  players: {setup.players}  bots: {bots}  seed: {setup.seed}  options: {options}"]
    if setup.duplicate:
        lines.append(f"games: {summary.games} ({summary.deals} deals x {setup.rotations} seat rotations)")
    else:
        lines.append(f"games: {summary.games}")
    games = max(summary.games, 1)
    outcomes = sorted(summary.outcomes.items(), key=lambda item: (-item[1], item[0]))
    lines.append("outcomes: " + ", ".join(f"{reason} {count} ({count / games:.1%})" for reason, count in outcomes))
    low, high = summary.turns_interval
    lines.append(
        f"turns: mean {summary.mean_turns:.2f} (95% interval {low:.2f} to {high:.2f})  median {summary.median_turns:g}"
    )
    if setup.reactions:
        lines.append("reactions: " + ", ".join(setup.seat_levels()))
    if setup.latency_ms:
        lines.append("latency (ms, seat by seat in rotation 0): " + ", ".join(map(str, setup.seat_latency())))
    lines.extend(format_stats(summary.stats))
    if summary.wins is not None and summary.win_rate is not None and summary.win_interval is not None:
        low, high = summary.win_interval
        lines.append(f"wins: {summary.wins}")
        lines.append(f"win rate: {summary.win_rate:.2%} (95% interval {low:.2%} to {high:.2%})")
    if summary.histogram is not None and summary.mean_score is not None and summary.median_score is not None:
        lines.append(f"mean score: {summary.mean_score:.2f}  median score: {summary.median_score:g}")
        lines.append("score histogram (cards left: games):")
        bins = score_bins(summary.histogram)
        peak = max((count for _, count in bins), default=1)
        for label, count in bins:
            lines.append(f"  {label:>7} {count:7d} {'#' * round(40 * count / peak)}")
    if summary.seat_wins is not None:
        lines.append(f"wins by seat (fair share {1 / setup.players:.1%}):")
        for seat in summary.seat_wins:
            lines.append(f"  seat {seat.seat:<3} {_rate(seat.wins, seat.rate, seat.interval)}")
    if summary.bot_wins is not None:
        lines.append("wins by bot (pooled over its seats):")
        width = max(len(entry.bot) for entry in summary.bot_wins)
        for entry in summary.bot_wins:
            seats = f"{entry.seats} seat" + ("s" if entry.seats > 1 else "")
            lines.append(
                f"  {entry.bot:<{width}}  {seats:<8} {_rate(entry.wins, entry.rate, entry.interval)}"
                f"  fair share {entry.fair_share:.1%}"
            )
    if summary.no_winner:
        lines.append(f"no winner: {summary.no_winner}")
    lines.append(f"games/second: {summary.games_per_second:.0f} ({summary.seconds:.2f} s)")
    return "\n".join(lines)
