"""The clock's rules: which events are due when, and applying them in due order, each at its own due time.

Two kinds of event, both derived from the record (``Timing``), so nothing runs in the background:

- **a bot decision**, for a seat a bot plays: a bot seat, a wait drawn by the core's reaction model
  (``thegame_core.reaction``: log-normal, mean ``reaction_ms``, standard deviation ``reaction_spread_ms``, seeded;
  plus the pause a real-time game's bot adds for the kind of action it is about to send, as in the simulator)
  after what it reacts to last changed (``reaction_key``: a game's hook, by default the
  actions the seat may send, so that a change that gives it nothing new to do, such as another seat's signal or a
  stale slap, does not restart its wait); a human seat whose deadline passed, at once from its deadline, until the
  game stops waiting for it; a human seat taken over after ``idle_turns`` missed deadlines, at ``takeover_ms``.
  With no person in the game, bots wait at least the record's ``bots_alone_ms``. A bot that declines is asked
  again after the next change; the decline is remembered by the process (``DECISIONS``), never written: it changes
  nothing, wakes no stream and costs no decision of a request's budget.
- **a deadline**, for a human seat the game waits for when ``turn_seconds`` is set: ``turn_seconds`` after the
  game began waiting for it (or after its owner's last action, if it still waits). It counts a missed turn
  and makes the seat overdue.
- **a paired lobby's bots** (Play now's ``bots_after_s``, ``GameRecord.bots_at``): at that time the ``best`` bot
  takes every empty seat and the game starts, as if a host had seated them and started it.
- **the game's timer** (the state's ``timer()``: Bataille corse's collection window closing), at the
  state's own due time: the game's action is applied then (marked ``c`` in the log). Like a deadline it costs no
  bot decision. Every action the clock applies is stamped with its due time (``received``), as a request's are
  with their arrival: a bot's slap is received when it is due.

``advance`` applies every event due by ``now`` in the order (due time, deadlines first, the game's asking
order); each takes effect at its own due time, and the next due times follow from it, never from ``now``:
catching up after an hour gives the game a timer firing on time would have given.
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

import thegame_core as tg
from thegame_core.reaction import Reaction

from ..records.game_record import GameRecord, Seat
from ..records.timing import AUTO, BOT, OWNER, TIMER, Timing, add_marks
from .bots import Decision, decide

#: The bot that plays for a human seat when its deadline passes, and for a seat taken over.
AUTOPLAY_BOT = "best"

#: A bot playing for an absent seat waits at least this long, so that its owner, back at the table, sees the
#: turn and can take the seat back by acting.
TAKEOVER_MIN_MS = 1000
#: Decisions this process made or foresaw: (the game's host digest, the state's version, the seat, the bot) ->
#: ``Decision``. A decision is the same in every process (``decide``), so it is never written; a decline (no
#: actions) keeps the bot from being asked again before the next change.
DECISIONS_KEPT = 4096
DECISIONS: OrderedDict[tuple[str, int, int, str], Decision] = OrderedDict()


def default_reaction_ms(game: str) -> int:
    """A bot's pace where the seat names none: its game's (``bot_pace``)."""
    return tg.get_game(game).bot_pace.reaction_ms


def default_spread_ms(game: str) -> int:
    return tg.get_game(game).bot_pace.spread_ms


def takeover_ms(game: str) -> int:
    return max(default_reaction_ms(game), TAKEOVER_MIN_MS)


class Player(NamedTuple):
    """Who plays a seat now when it is not its owner: the bot, from when, and the log's mark."""

    bot: str
    due: float
    mark: str


@dataclass(frozen=True, order=True)
class Event:
    due: float
    kind: int  # DEADLINE, then the game's TIMER (a window closes before a slap at its closing instant), then DECISION
    rank: int  # the game's asking order (a deadline: the seat)
    seat: int


DEADLINE, TIMER_FIRES, DECISION, LOBBY_BOTS = 0, 1, 2, 3
#: The bot that takes a paired lobby's empty seats when its deadline passes.
LOBBY_BOT = "best"


def stamp_ms(at: float) -> int:
    """Epoch seconds as the integer milliseconds an action's receive time is stamped with."""
    return int(at * 1000)


def missed_turns(record: GameRecord, seat: int) -> int:
    return record.timing.missed.get(seat, 0)


def bot_player(record: GameRecord, seat: int) -> Player | None:
    """The bot that plays ``seat`` now, if one does."""
    taken, timing = record.seats[seat], record.timing
    if taken is not None and taken.bot is not None:
        pace = default_reaction_ms(record.game) if taken.reaction_ms is None else taken.reaction_ms
        waits = _wait(record, seat, Reaction("seat", pace, taken.reaction_spread_ms or 0)) + _pause(
            record, seat, taken.bot
        )
        if not any(held is not None and held.token is not None for held in record.seats):
            waits = max(waits, record.bots_alone_ms)
        return Player(taken.bot, timing.since.get(seat, timing.at) + max(waits, 0.0) / 1000, BOT)
    if seat in timing.overdue:
        return Player(AUTOPLAY_BOT, max(timing.at, timing.overdue[seat]), AUTO)
    if record.turn_seconds and missed_turns(record, seat) >= record.idle_turns:
        return Player(AUTOPLAY_BOT, timing.at + takeover_ms(record.game) / 1000, AUTO)
    return None


def _pause(record: GameRecord, seat: int, bot: str) -> float:
    """What the kind of action a real-time game's bot is about to send adds to its reaction (a Bataille corse bot
    flips a moment after it would slap), as the simulator adds it: the decision is foreseen, at no cost for the
    other games, whose bots do not pace their actions."""
    if not tg.get_game(record.game).realtime:
        return 0.0
    return decision(record, seat, bot).pause_ms


def _decision_key(record: GameRecord, seat: int, bot: str) -> tuple[str, int, int, str]:
    assert record.state is not None
    return record.host, record.state.version, seat, bot


def decision(record: GameRecord, seat: int, bot: str) -> Decision:
    """``bot``'s decision for ``seat`` at the record's state, made once per process."""
    assert record.state is not None
    key = _decision_key(record, seat, bot)
    found = DECISIONS.get(key)
    if found is None:
        found = DECISIONS[key] = decide(bot, record.state, seat, record.seed)
        while len(DECISIONS) > DECISIONS_KEPT:
            DECISIONS.popitem(last=False)
    return found


def _wait(record: GameRecord, seat: int, pace: Reaction) -> float:
    """Milliseconds a bot of ``seat`` waits, drawn by the core's reaction model (as the simulator draws it) with a
    generator seeded from the game's seed and what the seat reacts to: the same for every process that computes
    it, different from one reaction to the next."""
    return _drawn(f"{record.seed}:{seat}:{record.timing.seen.get(seat, '')}", pace)


@lru_cache(maxsize=4096)
def _drawn(basis: str, pace: Reaction) -> float:
    """The draw for ``basis``, remembered: every read and change asks for each bot's due time, and seeding a
    generator costs about 10 us."""
    seed = int.from_bytes(hashlib.blake2b(basis.encode(), digest_size=8).digest())
    return pace.draw(random.Random(seed))


def reaction_key(state: tg.AnyState, seat: int) -> str:
    """A short digest of what a bot of ``seat`` reacts to: the state's ``reaction_key(seat)``."""
    return hashlib.blake2b(repr(state.reaction_key(seat)).encode(), digest_size=6).hexdigest()


def deadline(record: GameRecord, seat: int) -> float | None:
    """When ``seat``'s owner must have acted (epoch seconds), if a deadline runs for it."""
    state, timing = record.state, record.timing
    if not record.turn_seconds or state is None or state.status != "playing" or seat not in state.waiting_for:
        return None
    if seat not in timing.waits or bot_player(record, seat) is not None:
        return None
    return timing.waits[seat] + record.turn_seconds


def _without_clock(record: GameRecord) -> bool:
    """Whether nothing can fall due: no deadlines, no bot seat and no seat a bot plays for (most games of people:
    every read and change asks, three times per change); the game's own timer is asked apart."""
    return (
        not record.turn_seconds
        and not record.timing.overdue
        and all(seat is None or seat.bot is None for seat in record.seats)
    )


def events(record: GameRecord) -> list[Event]:
    """Every pending event, due or not."""
    state = record.state
    if state is None and record.bots_at and record.free_seats:
        return [Event(record.bots_at / 1000, LOBBY_BOTS, 0, -1)]
    if state is None or state.status != "playing":
        return []
    fires = state.timer()
    pending = [] if fires is None else [Event(fires.due / 1000, TIMER_FIRES, 0, -1)]
    if _without_clock(record):
        return pending
    for rank, seat in enumerate(state.asking_order()):
        player = bot_player(record, seat)
        if player is not None and not _declined(record, seat, player.bot):
            pending.append(Event(player.due, DECISION, rank, seat))
    for seat in sorted(state.waiting_for):
        due = deadline(record, seat)
        if due is not None:
            pending.append(Event(due, DEADLINE, seat, seat))
    return pending


def _declined(record: GameRecord, seat: int, bot: str) -> bool:
    """Whether ``bot`` declined to act for ``seat`` at this state (this process knows it, or foresaw it)."""
    found = DECISIONS.get(_decision_key(record, seat, bot))
    return found is not None and not found.actions


def next_due(record: GameRecord) -> float | None:
    """Epoch seconds of the earliest pending event (``None``: nothing will happen until someone acts)."""
    return min((event.due for event in events(record)), default=None)


def changed(record: GameRecord, before: tg.AnyState | None, seat: int | None, mark: str, at: float) -> GameRecord:
    """``record``, whose state just replaced ``before`` by ``seat``'s actions (``mark``: who decided them) at
    ``at``, with its timing moved on: waits start for seats newly waited for (and restart for the actor); a bot
    seat's wait restarts when what it reacts to changed; an owner's action clears its missed turns, which gives a
    taken-over seat back."""
    state, timing = record.state, record.timing
    assert state is not None
    waited = frozenset() if before is None else before.waiting_for
    waits = {s: at if s not in waited or s == seat else timing.waits.get(s, at) for s in state.waiting_for}
    overdue = {s: due for s, due in timing.overdue.items() if s in state.waiting_for}
    missed = dict(timing.missed)
    if mark == OWNER and seat is not None:
        missed.pop(seat, None)
        overdue.pop(seat, None)
    marks = add_marks(timing.marks, state.history[0 if before is None else before.version :], mark)
    seen = {s: reaction_key(state, s) for s, held in enumerate(record.seats) if held is not None and held.bot}
    since = {s: timing.since.get(s, timing.at) if timing.seen.get(s) == key else at for s, key in seen.items()}
    return replace(record, timing=Timing(at, waits, missed, overdue, marks, since, seen))


def _decision(record: GameRecord, event: Event) -> GameRecord | None:
    """The record after the decision of the bot that plays ``event.seat``; ``None`` if it declines (remembered
    here, not written: the game is as it was)."""
    state = record.state
    player = bot_player(record, event.seat)
    assert state is not None and player is not None
    actions = decision(record, event.seat, player.bot).actions
    if not actions:
        return None
    game, at = tg.get_game(record.game), stamp_ms(event.due)
    after = state.apply_all([game.received(action, at) for action in actions])
    return changed(record.with_state(after), state, event.seat, player.mark, event.due)


def _timer_fires(record: GameRecord) -> GameRecord:
    """The record after the game's timer action (a window's judge), at its due time."""
    state = record.state
    assert state is not None
    fires = state.timer()
    assert fires is not None
    return changed(record.with_state(state.apply(fires.action)), state, None, TIMER, fires.due / 1000)


def _bots_take_seats(record: GameRecord, due: float) -> GameRecord:
    """A paired lobby at its deadline: the ``best`` bot in every empty seat, at the game's pace, and the start."""
    pace, spread = default_reaction_ms(record.game), default_spread_ms(record.game)
    for seat in record.free_seats:
        record = record.with_seat(
            seat, Seat(f"{LOBBY_BOT} {seat + 1}", None, LOBBY_BOT, pace, reaction_spread_ms=spread)
        )
    return changed(record.started(record.drawn_first_seat()), None, None, OWNER, due)


def _deadline_passes(record: GameRecord, event: Event) -> GameRecord:
    timing = record.timing
    missed = {**timing.missed, event.seat: missed_turns(record, event.seat) + 1}
    overdue = {**timing.overdue, event.seat: event.due}
    return replace(record, timing=replace(timing, missed=missed, overdue=overdue))


def advance(record: GameRecord, now: float, budget: int) -> tuple[GameRecord, int]:
    """``record`` after every event due by ``now``, in due order, with at most ``budget`` bot decisions (a decline
    counts none); and the budget left. Events past the budget stay due (``next_due`` still says so) for the next
    touch."""
    while True:
        pending = events(record)
        if not pending:
            return record, budget
        event = min(pending)
        if event.due > now or (event.kind == DECISION and budget <= 0):
            return record, budget
        if event.kind == DEADLINE:
            record = _deadline_passes(record, event)
        elif event.kind == LOBBY_BOTS:
            record = _bots_take_seats(record, event.due)
        elif event.kind == TIMER_FIRES:
            record = _timer_fires(record)
        elif (decided := _decision(record, event)) is not None:
            record, budget = decided, budget - 1


def behind(record: GameRecord, now: float) -> bool:
    """Whether events due by ``now`` are still to apply (the budget ran out)."""
    due = next_due(record)
    return due is not None and due <= now
