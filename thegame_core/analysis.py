"""Move-by-move analysis of a game: for each decision of each seat, what a bot (``best``) would have done from that
seat's observation at that moment, and the value of the choice made against the bot's.

    from thegame_core.analysis import analyse
    report = analyse(state.replay_record(), bot="best", rollouts=8, seed=1)
    report.decisions[0].cost, report.to_dict()

**Decisions.** In a turn-based game a decision is a run of one seat's actions in a row, closed when the game's turn
count grows or the game ends: what a bot returns from one ``act`` (The Game: a turn's signals, plays and end of turn;
Ninja: one move, or a seat's swaps and its ``ready``). A resampled deal may refuse an action of a decision that
played what the seat was dealt during it (Ninja: a card drawn after a king given, whose giver leads): there the
choice is played up to that action and the playout goes on (``_played``). In a real-time game (Bataille corse) every
action is a decision of its own, a flip or a slap, and the bot's choice is its answer to the same observation: slap,
flip, or wait (no action). A slap a seat never sent is no decision: the log does not say when it could have been
seen. A game whose referee judged actions by their receive time (a state with a ``timer``: Bataille corse's
collection window, an option) is refused (``InvalidSetup``): its rollouts would need the referee's clock.

**Values, never from the hidden cards.** Each choice is played from ``rollouts`` states the seat cannot tell from the
real one (``state.resample``: its hidden cards dealt anew, consistently with what it saw), then ``playout`` (by
default ``greedy``: a game's quick bot, hundreds of times cheaper than ``best``, whose own searches inside every
playout were nearly all of an analysis's time; docs/benchmarks.md, "Analysis") plays every seat to the end (a
real-time game raced as the simulator races it). Both choices of a decision are played from the same deals and bot
seeds (common random numbers), so their difference is not drowned in the luck of the deal. A cooperative game's value
is the share of rollouts won, and with a score (The Game) the mean cards left; a competitive game's, the share the
seat wins. ``cost``: how much worse the choice made did than the bot's, in the analysis's ``measure``
(``cards_left`` for a game with a score, else ``win``, the chance); 0 when they are the same choice, and it may be
below 0 (the choice made did better on these deals).

**Fewer playouts where the bot agrees.** A decision whose choice the bot shares (``same``) costs 0 whatever its value,
which only draws the chart: it is valued from a quarter of the ``rollouts`` (at least one). Nearly every flip of
Bataille corse is such a decision, and they were nine tenths of its analysis's time at half.

**Horizon.** In a game whose states estimate the seat's chance to win (``estimate``: Bataille corse, its share of
the cards), a playout stops ``horizon`` actions after the choice (default ``DEFAULT_HORIZON``) and counts that
estimate if the game is not over by then: in a game of luck, the hundreds of flips after that cost most of an
analysis's time and add mostly noise to the values. ``horizon=None``
plays every playout to the end; a game without an estimate (The Game, Ninja) always does, and its analysis says so
(``Analysis.horizon`` None).

**Decisions one by one.** Each decision draws everything from ``seed`` and its own index (its chooser's seed too),
never from the decisions before it: ``Plan.decision(index)`` gives the same answer alone, in any order or process, as
in a whole run, so a service may split an analysis into parts by decision and put them together again
(``Plan.assemble``). The same record, bots, rollouts and seed give the same analysis.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .bots import create_bot
from .errors import IllegalAction, InvalidSetup
from .protocol import AnyGame, AnyState
from .registry import get_game
from .simulate import derive_seed, play_out

__all__ = [
    "DEFAULT_HORIZON",
    "DEFAULT_PLAYOUT",
    "DEFAULT_ROLLOUTS",
    "MAX_ROLLOUTS",
    "Analysis",
    "Decision",
    "Plan",
    "Value",
    "analyse",
    "check",
    "format_table",
    "plan",
]

#: Rollouts per choice by default: The Game's 2-player game in about a minute on one core (docs/benchmarks.md).
DEFAULT_ROLLOUTS = 8
#: The bot that plays every seat of a playout, by default (see the module's doc).
DEFAULT_PLAYOUT = "greedy"
#: Actions a playout plays before it stops and counts the game's estimate, in a game that has one (see the module's
#: doc); None: to the end.
DEFAULT_HORIZON = 100
MAX_ROLLOUTS = 1000
Measure = Literal["cards_left", "win"]
#: Why a game whose referee judged by time is not analysed: its rollouts would need the referee's clock.
UNTIMED = (
    "a game in which the referee judged actions by their time (Bataille corse's collection window, slap_window_ms)"
    " is not analysed"
)


@dataclass(frozen=True)
class Value:
    """What a choice is worth: the share of rollouts won (the team's, or the seat's; one stopped at the horizon counts
    the game's estimate), and the mean cards left at the end for a game with a score (None otherwise)."""

    win: float
    cards_left: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"win": self.win, "cards_left": self.cards_left}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Value:
        return cls(data["win"], data["cards_left"])


@dataclass(frozen=True)
class Decision:
    """One decision: ``seat`` played the replay record's actions ``start`` to ``end``, the end excluded (the core's
    versions before and after); ``best`` is what the bot would have played instead, ``same`` whether it leaves the
    seat the same table (the same actions, or the same in another order), and each choice's value."""

    seat: int
    start: int
    end: int
    played: tuple[dict[str, Any], ...]
    best: tuple[dict[str, Any], ...]
    same: bool
    played_value: Value
    best_value: Value
    cost: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "start": self.start,
            "end": self.end,
            "played": list(self.played),
            "best": list(self.best),
            "same": self.same,
            "played_value": self.played_value.to_dict(),
            "best_value": self.best_value.to_dict(),
            "cost": self.cost,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """The decision ``to_dict`` wrote (a part of an analysis worked out elsewhere)."""
        values = Value.from_dict(data["played_value"]), Value.from_dict(data["best_value"])
        played, best = tuple(data["played"]), tuple(data["best"])
        return cls(data["seat"], data["start"], data["end"], played, best, data["same"], *values, data["cost"])


@dataclass(frozen=True)
class Analysis:
    """Every decision of a game, in the order played, and how they were valued; ``horizon``: the actions a playout
    played after the choice before it counted the game's estimate, None when playouts ran to the end (a game with no
    estimate, or ``horizon=None`` asked)."""

    game: str
    players: int
    bot: str
    playout: str
    rollouts: int
    seed: int
    measure: Measure
    decisions: tuple[Decision, ...]
    horizon: int | None

    def seat_summaries(self) -> list[dict[str, Any]]:
        """Per seat: its decisions, how many were the bot's own choice, and their costs added up."""
        summaries = []
        for seat in range(self.players):
            mine = [decision for decision in self.decisions if decision.seat == seat]
            summaries.append(
                {
                    "seat": seat,
                    "decisions": len(mine),
                    "same": sum(decision.same for decision in mine),
                    "cost": sum(decision.cost for decision in mine),
                }
            )
        return summaries

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (docs/api.md, "Analysis")."""
        return {
            "game": self.game,
            "players": self.players,
            "bot": self.bot,
            "playout": self.playout,
            "horizon": self.horizon,
            "rollouts": self.rollouts,
            "seed": self.seed,
            "measure": self.measure,
            "decisions": [decision.to_dict() for decision in self.decisions],
            "seats": self.seat_summaries(),
        }


@dataclass(frozen=True)
class _Run:
    """What every rollout of one analysis shares (``horizon``: None in a game with no estimate)."""

    game: AnyGame
    bot: str
    playout: str
    rollouts: int
    seed: int
    measure: Measure
    horizon: int | None

    @property
    def realtime(self) -> bool:
        return self.game.realtime


@dataclass(frozen=True)
class Plan:
    """An analysis ready to work out: the game replayed (every state), its decisions (``spans``: seat, start, end)
    and what its rollouts share. ``decision(index)`` works one out; ``assemble`` puts them together."""

    run: _Run
    states: Sequence[AnyState]
    actions: Sequence[Any]
    spans: Sequence[tuple[int, int, int]]
    log: Sequence[dict[str, Any]]  # the actions as applied (a slap with its result)

    def decision(self, index: int) -> Decision:
        """Decision ``index``: what the bot would have played from the seat's observation at its start, and the
        value of both choices (see "Decisions one by one" above)."""
        run = self.run
        seat, start, end = self.spans[index]
        state = self.states[start]
        chooser = create_bot(run.bot, game=run.game.name, seed=derive_seed(run.seed, "choice", index))
        best = list(chooser.act(state.observe(seat)))
        played = self.actions[start:end]
        same = _seen(state.apply_all(played), seat) == _seen(state.apply_all(best), seat)
        played_value = _value(run, index, state, seat, played, _agreed(run.rollouts) if same else run.rollouts)
        best_value = played_value if same else _value(run, index, state, seat, best, run.rollouts)
        cost = 0.0 if same else _cost(run, played_value, best_value)
        best_dicts = tuple(action.to_dict() for action in best)
        return Decision(seat, start, end, tuple(self.log[start:end]), best_dicts, same, played_value, best_value, cost)

    def assemble(self, decisions: Sequence[Decision]) -> Analysis:
        """The analysis of these decisions, every one of the game's, in the order played."""
        run = self.run
        players = self.states[0].players
        return Analysis(
            run.game.name,
            players,
            run.bot,
            run.playout,
            run.rollouts,
            run.seed,
            run.measure,
            (*decisions,),
            run.horizon,
        )


def plan(
    record: Mapping[str, Any],
    bot: str = "best",
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
    playout: str = DEFAULT_PLAYOUT,
    horizon: int | None = DEFAULT_HORIZON,
) -> Plan:
    """The analysis of the game a replay record describes (``state.replay_record()``, or the ``replay`` of the
    service's log), ready to work out (milliseconds: the game replayed, no rollout yet); the game need not be over.
    ``GameError`` for a record that does not replay, an unknown bot, ``rollouts`` out of 1..``MAX_ROLLOUTS`` or a
    ``horizon`` below 1."""
    if type(rollouts) is not int or not 1 <= rollouts <= MAX_ROLLOUTS:
        raise InvalidSetup(f"rollouts must be an integer from 1 to {MAX_ROLLOUTS}, got {rollouts!r}")
    if horizon is not None and (type(horizon) is not int or horizon < 1):
        raise InvalidSetup(f"horizon must be None or an integer of at least 1, got {horizon!r}")
    game, states, actions = _replay(record)
    for name in (bot, playout):
        create_bot(name, game=game.name, seed=seed)  # an unknown bot's error now, not after the first rollout
    first = states[0]
    scored = game.info.cooperative and first.score is not None
    if first.estimate(0) is None:
        horizon = None  # no estimate to count at a horizon: playouts run to the end
    run = _Run(game, bot, playout, rollouts, seed, "cards_left" if scored else "win", horizon)
    spans = decision_spans(states, actions, run.realtime)
    return Plan(run, states, actions, spans, states[-1].public_log())


def analyse(
    record: Mapping[str, Any],
    bot: str = "best",
    rollouts: int = DEFAULT_ROLLOUTS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    playout: str = DEFAULT_PLAYOUT,
    horizon: int | None = DEFAULT_HORIZON,
) -> Analysis:
    """Analyse every decision of the game ``record`` describes (``plan``'s arguments); ``progress(done, total)`` is
    called with counts of decisions."""
    work = plan(record, bot, rollouts, seed, playout, horizon)
    total = len(work.spans)
    decisions = []
    if progress is not None:
        progress(0, total)
    for index in range(total):
        decisions.append(work.decision(index))
        if progress is not None:
            progress(index + 1, total)
    return work.assemble(decisions)


def _replay(record: Mapping[str, Any]) -> tuple[AnyGame, list[AnyState], list[Any]]:
    """``record``'s game, every state of it from the deal, and its actions: ``GameError`` for a record that does not
    replay, and ``InvalidSetup`` (``UNTIMED``) as soon as a state has a pending timer, the last one too (a record
    may end with a collection window open)."""
    if not isinstance(record, Mapping) or not isinstance(record.get("actions"), list):
        raise InvalidSetup("a replay record is an object with a list of actions")
    game = get_game(str(record.get("game", "the-game")))
    states = [_untimed(game.replay({**record, "actions": []}))]
    actions = [game.parse_action(action) for action in record["actions"]]
    for action in actions:
        states.append(_untimed(states[-1].apply(action)))
    return game, states, actions


def _untimed(state: AnyState) -> AnyState:
    """``state``, unless the referee judges it by time (a pending timer): its rollouts would need the referee's
    clock."""
    if state.timer() is not None:
        raise InvalidSetup(UNTIMED)
    return state


def check(record: Mapping[str, Any]) -> None:
    """``GameError`` unless ``analyse`` can analyse ``record``: without running a rollout (milliseconds)."""
    _replay(record)


def decision_spans(states: Sequence[AnyState], actions: Sequence[Any], realtime: bool) -> list[tuple[int, int, int]]:
    """The decisions of a game as ``(seat, start, end)``: its actions ``start`` to ``end`` (see the module's doc)."""
    spans = []
    start = 0
    for index, action in enumerate(actions):
        after = states[index + 1]
        closes = (
            realtime
            or index + 1 == len(actions)
            or after.outcome is not None
            or after.turns > states[index].turns
            or actions[index + 1].seat != action.seat
        )
        if closes:
            spans.append((action.seat, start, index + 1))
            start = index + 1
    return spans


def _seen(state: AnyState, seat: int) -> dict[str, Any]:
    """What ``seat`` sees of ``state``, but the version: two choices that leave the same are the same choice (the same
    cards on the same piles in another order)."""
    view = state.view(seat)
    del view["version"]
    return view


def _cost(run: _Run, played: Value, best: Value) -> float:
    if run.measure == "cards_left" and played.cards_left is not None and best.cards_left is not None:
        return played.cards_left - best.cards_left
    return best.win - played.win


def _agreed(rollouts: int) -> int:
    """The playouts of a decision where the bot agrees: its cost is 0 whatever its value, which only draws the
    chart, so a quarter of them do (see "Fewer playouts where the bot agrees" above)."""
    return max(1, rollouts // 4)


def _value(run: _Run, index: int, state: AnyState, seat: int, choice: Sequence[Any], rollouts: int) -> Value:
    """The choice played from ``rollouts`` deals of what ``seat`` cannot see, then by ``run.playout`` at every seat,
    to the end or, in a game that estimates, ``run.horizon`` actions on (see "Horizon" above)."""
    wins = 0.0
    left: list[int] = []
    seats = range(state.players)
    names = [run.playout] * state.players
    for rollout in range(rollouts):
        world = _played(state.resample(seat, random.Random(derive_seed(run.seed, index, rollout))), choice)
        bots = [
            create_bot(run.playout, game=run.game.name, seed=derive_seed(run.seed, index, rollout, s)) for s in seats
        ]
        race = random.Random(derive_seed(run.seed, index, rollout, "race")) if run.realtime else None
        where = f"analysis of decision {index}, rollout {rollout}"
        until = None if run.horizon is None else world.version + run.horizon
        end = play_out(world, bots, names, where, race, until=until)
        wins += _won(run, end, seat)
        if run.measure == "cards_left":
            left.append(end.score)
    return Value(wins / rollouts, statistics.fmean(left) if left else None)


def _played(world: AnyState, choice: Sequence[Any]) -> AnyState:
    """``world`` after ``choice``, up to its first action this deal of the hidden cards refuses: an action after the
    first may play what the seat was dealt in between (Ninja: a card drawn after a king given, whose giver leads),
    which another deal did not give it. The playout goes on from there, for both choices of a decision alike."""
    if not choice:
        return world
    try:
        return world.apply_all(choice)
    except IllegalAction:
        for action in choice:
            try:
                world = world.apply(action)
            except IllegalAction:
                return world
        raise  # every action applied one by one: ``apply_all`` refused something else, a bug worth its traceback


def _won(run: _Run, end: AnyState, seat: int) -> float:
    """1 if ``seat`` (its team, in a cooperative game) won the playout ``end``, 0 if not, and the game's estimate if
    it stopped at the horizon."""
    outcome = end.outcome
    if outcome is None:
        estimate = end.estimate(seat)
        assert estimate is not None  # a playout stops short only in a game that estimates
        return estimate
    return float(outcome.status == "won" if run.game.info.cooperative else outcome.winner == seat)


def _actions_text(actions: Sequence[Mapping[str, Any]]) -> str:
    """Actions in a few words: each its type and values (``play 3 asc1, end_turn``); ``wait`` for none."""
    if not actions:
        return "wait"
    words = []
    for action in actions:
        values = [str(value) for key, value in action.items() if key not in ("type", "seat") and value is not None]
        words.append(" ".join([str(action["type"]), *values]))
    return ", ".join(words)


def format_table(analysis: Analysis) -> str:
    """The analysis as a table: one line per decision (``*`` marks the bot's own choice), then each seat's sums."""
    cards = analysis.measure == "cards_left"
    unit = "cards left" if cards else "win chance"
    lines = [
        f"game: {analysis.game}  players: {analysis.players}  bot: {analysis.bot}  playout: {analysis.playout}"
        f"  rollouts: {analysis.rollouts}  horizon: {analysis.horizon or 'the end'}"
        f"  seed: {analysis.seed}  measure: {unit} (cost: how much worse than the bot's choice)",
        f"{'#':>4} {'seat':>4} {'version':>9}  {'played':<34} {'bot':<34} {'played':>7} {'bot':>7} {'cost':>7}",
    ]
    for number, decision in enumerate(analysis.decisions):
        played, best = _shown(decision.played_value, cards), _shown(decision.best_value, cards)
        mark = "*" if decision.same else " "
        versions = f"{decision.start}-{decision.end}"
        lines.append(
            f"{number:>4} {decision.seat:>4} {versions:>9}  {_cut(_actions_text(decision.played)):<34}"
            f"{mark}{_cut(_actions_text(decision.best)):<34} {played:>7} {best:>7} {decision.cost:>7.2f}"
        )
    for summary in analysis.seat_summaries():
        lines.append(
            f"seat {summary['seat']}: {summary['decisions']} decisions, {summary['same']} as the bot, "
            f"cost {summary['cost']:.2f} {unit}"
        )
    return "\n".join(lines)


def _shown(value: Value, cards: bool) -> str:
    return f"{value.cards_left:.2f}" if cards and value.cards_left is not None else f"{value.win:.0%}"


def _cut(text: str, width: int = 34) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"
