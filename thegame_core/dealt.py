"""What every dealt card game of the library shares, written once.

A game is dealt from a seed (a shuffle of its cards) or an explicit deck; its state is a named tuple
equal only to a state of its own class; a snapshot is a format version, the setup and the history in
compact notation, read back by replaying it (so no snapshot can describe a state no game reaches);
a replay record is the setup and the actions in dict form. ``DealtGame`` is the registry entry built
on those, with a game's own hooks: its options, its deal, its actions.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from .errors import CorruptState, GameError, InvalidAction, InvalidSetup
from .outcome import Outcome, Progress
from .protocol import AnyState, GameDefaults

T = TypeVar("T")
FORMAT_VERSION = 1
SNAPSHOT_KEYS = frozenset({"format", "game", "options", "deck", "first_seat", "history"})


def shuffled(cards: Sequence[T], seed: int) -> tuple[T, ...]:
    """``cards`` in the order ``random.Random(seed).shuffle`` gives: the same on every machine and Python."""
    deck = list(cards)
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def checked_deck(deck: Any, cards: Sequence[int], what: str) -> tuple[int, ...]:
    """``deck`` as a tuple if it holds exactly ``cards`` (ints only, in any order); ``InvalidSetup`` naming
    ``what`` a deck must hold otherwise."""
    if isinstance(deck, str | bytes) or not isinstance(deck, Iterable):
        raise InvalidSetup(f"deck must be a list of {what}")
    dealt = tuple(deck)
    if set(map(type, dealt)) != {int} or sorted(dealt) != sorted(cards):  # types first: 2.0 == 2, True == 1
        raise InvalidSetup(f"deck must hold {what}, each exactly as often as the game has it")
    return dealt


def without_seat(action: Any) -> dict[str, Any]:
    """An action's dict form as a client sends it back (a view's ``legal_actions``): the token says who acts."""
    data: dict[str, Any] = action.to_dict()
    del data["seat"]
    return data


@dataclass(slots=True)
class Seen(Progress, ABC):
    """What one seat (or a spectator, ``seat=None``) knows of a dealt game at one moment: the fields every game's
    ``Observation`` starts with (``current_seat`` and ``waiting_for`` as the state has them), and its JSON view built
    the same way. Bots decide from it; ``state.view(seat)`` is its ``to_dict()``, which the game's
    ``observation_from_view`` reads back (``seen_in`` and ``legal_in`` read the shared part). A game's
    ``Observation`` adds its own fields and gives its ``seats()`` and ``table()`` (and ``own()``, a seat's own
    fields). A copy made for its reader: changing it changes nothing in the game (not frozen: one is built per
    decision of every simulated game, and freezing costs time)."""

    game: ClassVar[str]
    seat: int | None
    options: Any
    current_seat: int | None
    waiting_for: frozenset[int]
    history: tuple[Any, ...]
    outcome: Outcome[str] | None

    @property
    def my_turn(self) -> bool:
        """Whether the game waits for this seat."""
        return self.seat is not None and self.seat in self.waiting_for

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """Every action this seat may send now (none for a spectator)."""

    @abstractmethod
    def seats(self) -> list[dict[str, Any]]:
        """The view's ``seats``: each seat's public facts, by seat."""

    @abstractmethod
    def table(self) -> dict[str, Any]:
        """The game's public fields of the view, after the fields every view starts with."""

    def own(self) -> dict[str, Any]:
        """A seat's own fields of its view, between ``seat`` and ``legal_actions``: none by default."""
        return {}

    def to_dict(self) -> dict[str, Any]:
        """The view of the HTTP contract (``docs/api.md``, "Views of every game"): the fields every view starts
        with, in the contract's order, the game's ``table()``, then a seat's ``seat``, ``own()`` and
        ``legal_actions`` (in dict form, without the seat: the token says who acts)."""
        outcome, options = self.outcome, self.options
        view: dict[str, Any] = {
            "game": self.game,
            "status": self.status,
            "outcome": None if outcome is None else outcome.to_dict(),
            "version": self.version,
            "options": options.to_dict(),
            "players": options.players,
            "seats": self.seats(),
            "current_seat": self.current_seat,
            "waiting_for": sorted(self.waiting_for),
            **self.table(),
        }
        if self.seat is not None:
            view["seat"] = self.seat
            view.update(self.own())
            view["legal_actions"] = [without_seat(action) for action in self.legal_actions()]
        return view

    @classmethod
    def lobby_view(cls, options: Any, **fields: Any) -> dict[str, Any]:
        """The view of a table before the deal, status ``"lobby"``: an observation of nothing dealt (no seat, turn,
        history or outcome) with the game's own ``fields``."""
        empty = cls(
            seat=None, options=options, current_seat=None, waiting_for=frozenset(), history=(), outcome=None, **fields
        )
        view = empty.to_dict()
        view["status"] = "lobby"
        return view

    @staticmethod
    def seen_in(view: Mapping[str, Any], options: Any, history: tuple[Any, ...]) -> dict[str, Any]:
        """The fields every observation starts with, from its ``to_dict()``, as keywords for the game's class."""
        return {
            "seat": view.get("seat"),
            "options": options,
            "current_seat": view["current_seat"],
            "waiting_for": frozenset(view["waiting_for"]),
            "history": history,
            "outcome": Outcome.from_dict(view["outcome"]),
        }

    @staticmethod
    def legal_in(view: Mapping[str, Any], parse_action: Callable[[Mapping[str, Any]], T]) -> tuple[T, ...]:
        """A seat view's ``legal_actions``, parsed with the view's seat put back."""
        seat = view.get("seat")
        return tuple(parse_action({**action, "seat": seat}) for action in view.get("legal_actions", ()))


def seat_problem(seat: Any, players: int) -> str | None:
    """What is wrong with ``seat`` as one of ``players`` seats (an int from 0; a bool is not a seat), or None. Hot
    paths test the seat inline and ask this only for the message."""
    if type(seat) is int and 0 <= seat < players:
        return None
    return f"seat must be an integer from 0 to {players - 1}, got {seat!r}"


def checked_seat(seat: Any, players: int) -> int:
    """``seat`` if it is one of ``players`` seats, else ``InvalidAction``."""
    problem = seat_problem(seat, players)
    if problem is not None:
        raise InvalidAction(problem)
    return int(seat)


def checked_first_seat(first_seat: Any, players: int) -> int:
    """``first_seat`` if it is one of ``players`` seats, else ``InvalidSetup``."""
    problem = seat_problem(first_seat, players)
    if problem is not None:
        raise InvalidSetup(f"first_{problem}")
    return int(first_seat)


class TupleState(tuple):  # type: ignore[type-arg]
    """A state that is a named tuple underneath (cheap to build: every action builds one), yet equal only
    to a state of its own class and not ordered. Put it first among a state's bases."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, tuple):
            return NotImplemented
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __lt__(self, other: object) -> bool:
        raise TypeError("states are not ordered")

    __le__ = __gt__ = __ge__ = __lt__
    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        """Short and safe to log: the game, players, version, status and the seats to act; never a hidden card
        (the whole state is in ``dumps``)."""
        state: Any = self
        waiting = sorted(state.waiting_for)
        to_act = f", seat{'s' if len(waiting) > 1 else ''} {', '.join(map(str, waiting))} to act" if waiting else ""
        players = f"{state.players} player{'s' if state.players > 1 else ''}"
        return f"<{state.game}, {players}: version {state.version}, {state.status}{to_act}>"


class Recorded:
    """The public log and the replay record of a state, from its setup and its history of actions (each with
    a ``to_dict()``): a game's actions carry no hidden card, so the log is the actions as they were sent."""

    __slots__ = ()
    game: ClassVar[str]
    options: Any
    deck: tuple[Any, ...]
    first_seat: int
    history: tuple[Any, ...]

    def public_log(self) -> list[dict[str, Any]]:
        """Every action so far, in dict form."""
        return [action.to_dict() for action in self.history]

    def replay_record(self) -> dict[str, Any]:
        """Setup plus actions: ``thegame_core.replay(record)`` rebuilds this exact state."""
        return {
            "game": self.game,
            "players": self.options.players,
            "options": self.options.to_dict(),
            "deck": list(self.deck),
            "first_seat": self.first_seat,
            "actions": self.public_log(),
        }


class Dealt(Protocol):
    """What ``DealtGame`` reads of a state."""

    @property
    def options(self) -> Any: ...
    @property
    def deck(self) -> tuple[Any, ...]: ...
    @property
    def first_seat(self) -> int: ...
    @property
    def history(self) -> tuple[Any, ...]: ...

    def apply_all(self, actions: Iterable[Any]) -> Any: ...


S = TypeVar("S", bound=Dealt)


ActionT = TypeVar("ActionT")  # a game's action type
ObsT = TypeVar("ObsT")  # a game's observation type


@dataclass(frozen=True)
class Hooks(Generic[S, ActionT, ObsT]):
    """A dealt game's own functions, named once where its registry entry is made (``DealtGame.hooks``): the entry
    hands each call on, so no game writes a one-line method per hook."""

    #: Validated options from the players and what a caller gives (``InvalidSetup`` otherwise).
    resolve_options: Callable[[Any, Mapping[str, Any] | None], Any]
    #: The state dealt from a deck under resolved options, from a first seat (``InvalidSetup`` for a deck that is
    #: not the game's).
    start: Callable[[Any, Sequence[Any], int], S]
    #: An action from its dict form (``InvalidAction`` if malformed).
    parse_action: Callable[[Mapping[str, Any]], ActionT]
    #: The observation a seat's view shows, given its resolved options and the history of actions.
    observation: Callable[[Mapping[str, Any], Any, tuple[ActionT, ...]], ObsT]
    #: The public view of the table before the deal, under resolved options.
    lobby_view: Callable[[Any], dict[str, Any]]
    #: An action from one entry of the default history notation; None for a game that writes its history
    #: otherwise (it overrides ``history_notation`` and ``replay_history``).
    action_from_notation: Callable[[str], ActionT] | None = None


class DealtGame(GameDefaults, ABC, Generic[S, ActionT, ObsT]):
    """A registry entry (``protocol.Game``) for a game dealt from a seed or a deck, whose states are ``S``, actions
    ``ActionT`` and observations ``ObsT``; a game sets ``name``, ``info``, ``bots`` and its ``hooks``, and writes its
    ``shuffled_deck`` (``registry.register`` checks the whole against ``protocol.Game``)."""

    name: ClassVar[str]
    hooks: Hooks[S, ActionT, ObsT]

    # A game's hooks ------------------------------------------------------------------------
    def resolve_options(self, players: Any, options: Mapping[str, Any] | None) -> Any:
        """Validated options (``InvalidSetup`` otherwise)."""
        return self.hooks.resolve_options(players, options)

    def start(self, options: Any, deck: Sequence[Any], first_seat: int) -> S:
        """The state dealt from ``deck`` (``InvalidSetup`` for a deck that is not the game's)."""
        return self.hooks.start(options, deck, first_seat)

    @abstractmethod
    def shuffled_deck(self, seed: int, options: Any = None) -> tuple[Any, ...]:
        """The deck ``seed`` deals under the resolved ``options`` (None: the defaults; a game whose cards depend
        on its options reads them)."""

    def parse_action(self, data: Mapping[str, Any]) -> ActionT:
        """An action from its dict form (``InvalidAction`` if malformed)."""
        return self.hooks.parse_action(data)

    def action_from_notation(self, text: str) -> ActionT:
        """An action from one entry of the default history notation (``InvalidAction`` if malformed)."""
        parse = self.hooks.action_from_notation
        if parse is None:
            raise NotImplementedError(f"{self.name} writes its history with history_notation")
        return parse(text)

    def lobby_view(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The public view of the table before the deal (status ``"lobby"``, nothing dealt)."""
        return self.hooks.lobby_view(self.resolve_options(players, options))

    # What every dealt game shares ----------------------------------------------------------
    def new_game(
        self,
        *,
        players: int,
        seed: int | None = None,
        deck: Sequence[Any] | None = None,
        options: Mapping[str, Any] | None = None,
        first_seat: int = 0,
    ) -> S:
        """A dealt game from ``seed`` or an explicit ``deck``, not both."""
        resolved = self.resolve_options(players, options)
        if seed is not None and deck is None:
            if type(seed) is not int:
                raise InvalidSetup(f"seed must be an integer, got {seed!r}")
            deck = self.shuffled_deck(seed, resolved)
        elif deck is None or seed is not None:
            raise InvalidSetup("give exactly one of seed or deck")
        return self.start(resolved, deck, first_seat)

    def replay(self, record: Mapping[str, Any]) -> S:
        """Rebuild a game from its ``replay_record()`` (or the service's log ``replay``)."""
        if not isinstance(record, Mapping):
            raise InvalidSetup("a replay record is an object")
        try:
            options, deck, actions = record["options"], record["deck"], record["actions"]
            players = record.get("players", options.get("players") if isinstance(options, Mapping) else None)
            first_seat = record.get("first_seat", 0)
        except KeyError as missing:
            raise InvalidSetup(f"a replay record needs options, deck and actions; {missing} is missing") from None
        if not isinstance(actions, list):
            raise InvalidSetup("a replay record's actions are a list")
        start = self.start(self.resolve_options(players, options), deck, first_seat)
        return start.apply_all([self.parse_action(action) for action in actions])  # type: ignore[no-any-return]

    def observation_from_view(self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> ObsT:
        """``state.observe(seat)`` from ``state.view(seat)`` and ``state.public_log()`` (a client's bot reads it)."""
        history = tuple(self.parse_action(action) for action in actions)
        return self.hooks.observation(view, self.resolve_options(view["players"], view["options"]), history)

    def to_dict(self, state: AnyState) -> dict[str, Any]:
        """The snapshot: format version, setup, and the history in notation (``TypeError`` for another game's
        state: the protocol takes any, since it cannot name ``S``)."""
        if state.game != self.name:
            raise TypeError(f"a {state.game} state is not a {self.name} state")
        own = cast(S, state)
        return {
            "format": FORMAT_VERSION,
            "game": self.name,
            "options": own.options.to_dict(),
            "deck": list(own.deck),
            "first_seat": own.first_seat,
            "history": self.history_notation(own),
        }

    def history_notation(self, state: S) -> Any:
        """The snapshot's ``history``: by default a list of each action's ``notation()``. It is written last, so
        a longer game's snapshot continues a shorter one's text (``thegame_core.loads`` relies on it)."""
        return [action.notation() for action in state.history]

    def replay_history(self, start: S, history: Any, done: int) -> S:
        """``start``, a state of the game after ``done`` actions, with the snapshot's ``history`` applied from its
        action ``done`` on (``CorruptState`` or another ``GameError`` for a damaged history)."""
        if not isinstance(history, list) or not all(type(text) is str for text in history):
            raise CorruptState("history must be a list of action notations")
        return start.apply_all([self.action_from_notation(text) for text in history[done:]])  # type: ignore[no-any-return]

    def from_dict(self, data: Mapping[str, Any]) -> S:
        """The state a snapshot holds, replayed; ``CorruptState`` for anything else."""
        return self.continued(None, data)

    def continued(self, earlier: S | None, data: Mapping[str, Any]) -> S:
        """``from_dict(data)``, replayed from ``earlier`` instead of the deal: only for an ``earlier`` state whose
        snapshot is ``data``'s with fewer actions (``thegame_core.loads`` checks it on the texts), so only the newer
        actions are applied; by determinism, the same state as a replay from the deal."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT_VERSION or data.get("game") != self.name:
            raise CorruptState(f"not a {self.name} snapshot of format {FORMAT_VERSION}")
        if set(data) != SNAPSHOT_KEYS:
            raise CorruptState(f"a {self.name} snapshot has exactly the fields {', '.join(sorted(SNAPSHOT_KEYS))}")
        try:
            options = data["options"]
            if earlier is None:
                start = self.start(self.resolve_options(options["players"], options), data["deck"], data["first_seat"])
            else:
                start = earlier
            return self.replay_history(start, data["history"], len(start.history))
        except (GameError, KeyError, TypeError, ValueError, IndexError) as error:
            raise CorruptState(f"damaged {self.name} snapshot: {error}") from None
