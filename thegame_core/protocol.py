"""What every game offers: its registry entry (``Game``), its states (``GameState``), its actions
and its self-description (``GameInfo``), as plain data that the service turns into a catalog and
an OpenAPI document.

Nothing here belongs to one game. A game may offer more (Ninja's ``phase``); callers that serve every game
(the service, the simulator, the generic tests) use only this. Some members are optional hooks, declared here
with their defaults in ``GameDefaults`` and ``StateDefaults`` (a game's registry entry and states inherit them,
``dealt.DealtGame`` and each game's ``State`` do): a real-time game's ``realtime`` and ``received(action, at_ms)``
(the action as the referee received it, at its own clock in ms: the service stamps it, a client never sends it),
a state's ``timer()`` (a ``Timer``: the moment, on that clock, the referee must apply the game's own action),
``results(count)``, ``score``, ``stats()`` and ``reaction_key(seat)``, and the game's ``bot_pace``.

``GameState``, ``Game`` and ``Bot`` are generic in a game's action and observation types: a game's own
code and tests see its exact types (``Game[ninja.Action, ninja.Observation]``), while code that holds
any game (the registry, the service, the simulator) uses ``AnyGame``, ``AnyState`` and ``AnyBot``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol, TypeVar

from .outcome import EndStatus, Outcome, Status

__all__ = [
    "FIELD_TYPES",
    "Action",
    "ActionInfo",
    "AnyBot",
    "AnyGame",
    "AnyState",
    "Bot",
    "BotFactory",
    "BotPace",
    "EndStatus",
    "FieldType",
    "Game",
    "GameDefaults",
    "GameInfo",
    "GameState",
    "OptionInfo",
    "Options",
    "StateDefaults",
    "Status",
    "TableStatus",
    "Timer",
]

#: A table's status as its views show it: ``"lobby"`` before the deal, then its state's ``Status``.
TableStatus = Literal["lobby", Status]

#: JSON types a field of an option or an action may have.
FieldType = Literal["int", "bool", "str"]
FIELD_TYPES: tuple[FieldType, ...] = ("int", "bool", "str")


class Action(Protocol):
    """An action of any game: a value object that names the seat acting and has a dict form."""

    @property
    def seat(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...


class Options(Protocol):
    """A game's resolved options; ``to_dict()`` is accepted back by ``new_game(options=...)``."""

    @property
    def players(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...


ActionT = TypeVar("ActionT", bound=Action)  # a game's action type (sent in and listed out: invariant)
ActionT_co = TypeVar("ActionT_co", bound=Action, covariant=True)
ObsT = TypeVar("ObsT")  # a game's observation type (``state.observe(seat)``)
ObsT_co = TypeVar("ObsT_co", covariant=True)
ObsT_contra = TypeVar("ObsT_contra", contravariant=True)


class GameState(Protocol[ActionT, ObsT_co]):
    """One immutable moment of a game whose actions are ``ActionT`` and observations ``ObsT_co``.

    ``waiting_for`` holds the seats whose action the game needs before it can move on (empty once
    over); ``current_seat`` is the one seat whose single action it needs, if there is one.
    ``legal_actions(seat)`` is every action ``seat`` may send now, out-of-turn ones included; any
    other action raises ``GameError`` and changes nothing. ``asking_order()`` is the order in which
    a referee (the simulator, the service's bot runner) offers seats the chance to act: out-of-turn
    claims first, by the rule's priority, then the seats the game waits for.
    """

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def options(self) -> Options: ...
    @property
    def status(self) -> Status: ...
    @property
    def version(self) -> int: ...
    @property
    def outcome(self) -> Outcome[str] | None: ...
    @property
    def current_seat(self) -> int | None: ...
    @property
    def waiting_for(self) -> frozenset[int]: ...
    @property
    def history(self) -> Sequence[ActionT]:
        """Every action applied so far, in order (the public log's actions)."""
        ...

    @property
    def turns(self) -> int:
        """Turns played so far, as the game counts them (The Game: ended turns; Ninja: in-turn moves; Bataille
        corse: flips)."""
        ...

    def legal_actions(self, seat: int) -> Sequence[ActionT]: ...
    def asking_order(self) -> tuple[int, ...]: ...
    def apply(self, action: ActionT) -> GameState[ActionT, ObsT_co]: ...
    def apply_all(self, actions: Iterable[ActionT]) -> GameState[ActionT, ObsT_co]: ...
    def resample(self, seat: int, rng: random.Random) -> GameState[ActionT, ObsT_co]:
        """This state as ``seat`` may believe it to be: every card it cannot see dealt anew at random, consistently
        with all it has seen (so ``seat`` observes the same), and nothing else changed. Rollouts that must not peek
        (determinization: ``thegame_core.analysis``) play on from such states."""
        ...

    def observe(self, seat: int | None) -> ObsT_co: ...
    def view(self, seat: int) -> dict[str, Any]: ...
    def public_view(self) -> dict[str, Any]: ...
    def public_log(self) -> list[dict[str, Any]]: ...
    def replay_record(self) -> dict[str, Any]: ...

    # Optional hooks: ``StateDefaults`` gives each one's default.
    @property
    def score(self) -> int | None:
        """The game's score, for a game that keeps one (The Game: the cards left, lower is better); else None."""
        ...

    def timer(self) -> Timer | None:
        """When the referee must apply the game's own action (Bataille corse's collection window closing); None."""
        ...

    def results(self, count: int) -> Sequence[str | None]:
        """What each of the last ``count`` actions did, in the game's word (Bataille corse's slaps: ``"valid"``,
        ``"false"``, ``"stale"``); None for an action without one (every action, by default)."""
        ...

    def stats(self) -> Mapping[str, int]:
        """Counts the simulator reports per game (Bataille corse: slaps by result); none by default."""
        ...

    def reaction_key(self, seat: int) -> Any:
        """What a bot of ``seat`` reacts to (a paced bot's wait restarts when it changes): by default the actions
        the seat may send now, so another seat's signal or a stale slap does not restart it."""
        ...

    def estimate(self, seat: int) -> float | None:
        """``seat``'s chance to win from here (its team's, in a cooperative game) by the game's own quick reckoning
        (Bataille corse: its share of the cards), where an analysis's playout stops short of the end (its horizon);
        None by default: no estimate, so playouts run to the end. A game's states all estimate, or none does."""
        ...


class Bot(Protocol[ObsT_contra, ActionT_co]):
    """Decides from one seat's observation only: the actions it takes now, in order (a whole turn
    where the game has turns), or none to decline (e.g. an optional out-of-turn action)."""

    def act(self, observation: ObsT_contra) -> Sequence[ActionT_co]: ...


#: A bot of any game (what the bot registry and the service's bot runner hold).
AnyBot = Bot[Any, Any]
#: Makes a bot from a seed (``Game.bots``' values).
BotFactory = Callable[[int], AnyBot]


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game: its JSON ``type`` (one of ``FIELD_TYPES``), default (``None``: it depends
    on the player count, as ``description`` says), and allowed values."""

    name: str
    type: FieldType
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.choices is not None:
            data["choices"] = list(self.choices)
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        data["description"] = self.description
        return data


@dataclass(frozen=True)
class ActionInfo:
    """One action type: its ``fields`` (name -> one of ``FIELD_TYPES``, ``seat`` not included),
    which of them may be left out, and when it may be sent."""

    type: str
    description: str
    fields: Mapping[str, FieldType] = field(default_factory=dict)
    optional: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "fields": dict(self.fields), "optional": list(self.optional)}


@dataclass(frozen=True)
class GameInfo:
    """A game's self-description: what a client needs to build its lobby screen and send actions.

    ``view`` maps each field the game adds to the common view fields to a JSON Schema fragment;
    ``seat_view`` likewise for the fields of a seat's view only. ``errors`` lists the game's own
    rule codes (raised as ``IllegalAction``) with their meaning. ``cards`` describes a ``deck``.
    ``facts`` holds numbers of the game's rules that a client draws on its table, taken from the rules'
    own tables so that no client keeps a copy (Bataille corse's ``honours``).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    cooperative: bool
    cards: str
    options: tuple[OptionInfo, ...]
    presets: Mapping[str, Mapping[str, Any]]
    actions: tuple[ActionInfo, ...]
    view: Mapping[str, Mapping[str, Any]]
    seat_view: Mapping[str, Mapping[str, Any]]
    errors: Mapping[str, str]
    outcome_reasons: Mapping[str, str]
    facts: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The catalog entry of the HTTP contract (bots are added by the registry)."""
        return {
            "name": self.name,
            "title": self.title,
            "players": {"min": self.min_players, "max": self.max_players},
            "cooperative": self.cooperative,
            "cards": self.cards,
            "options": [option.to_dict() for option in self.options],
            "presets": [{"name": name, "options": dict(values)} for name, values in self.presets.items()],
            "actions": [action.to_dict() for action in self.actions],
            "errors": dict(self.errors),
            "outcome_reasons": dict(self.outcome_reasons),
            "facts": dict(self.facts),
        }


class Game(Protocol[ActionT, ObsT]):
    """A registered game: creates, reads back and replays its states, parses its actions, and
    describes itself. ``bots`` maps bot names to factories taking a seed."""

    @property
    def name(self) -> str: ...
    @property
    def info(self) -> GameInfo: ...
    @property
    def bots(self) -> Mapping[str, BotFactory]: ...

    def new_game(
        self,
        *,
        players: int,
        seed: int | None,
        deck: Sequence[int | str] | None,
        options: Mapping[str, Any] | None,
        first_seat: int,
    ) -> GameState[ActionT, ObsT]: ...

    def lobby_view(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The public view of the table before the deal (status ``"lobby"``, nothing dealt)."""
        ...

    def to_dict(self, state: GameState[ActionT, ObsT]) -> dict[str, Any]:
        """The snapshot of one of this game's states (``GameError`` for another game's)."""
        ...

    def from_dict(self, data: Mapping[str, Any]) -> GameState[ActionT, ObsT]: ...
    def replay(self, record: Mapping[str, Any]) -> GameState[ActionT, ObsT]: ...
    def parse_action(self, data: Mapping[str, Any]) -> ActionT: ...

    def observation_from_view(self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> ObsT:
        """``state.observe(seat)`` rebuilt from ``state.view(seat)`` and the actions so far in dict form
        (``state.public_log()``): what a client that sees the game over HTTP gives its bot."""
        ...

    # Optional hooks: ``GameDefaults`` gives each one's default.
    @property
    def realtime(self) -> bool:
        """Whether a referee races the seats (any seat may act at any moment: Bataille corse) rather than asking
        them in turn; a real-time game's bots are ``reaction.Paced``. False by default."""
        ...

    @property
    def bot_pace(self) -> BotPace:
        """How long its bots take to act on a server, where a seat names no pace; at once by default."""
        ...

    def received(self, action: ActionT, at_ms: int) -> ActionT:
        """``action`` as the referee received it at ``at_ms`` (its clock, in ms): a game that judges races by time
        keeps the stamp in the action (Bataille corse's collection window); unchanged by default."""
        ...


#: A game or a state of any game: what the registry holds and what code serving every game handles.
AnyGame = Game[Any, Any]
AnyState = GameState[Any, Any]


class Timer(NamedTuple):
    """A state's timer: at ``due`` (ms, the clock of the actions' receive times) the referee applies ``action``."""

    due: int
    action: Any


@dataclass(frozen=True)
class BotPace:
    """A game's bots' pace on a server where a seat names none: the mean and spread (ms) of the reaction model's
    draw (``thegame_core.reaction``); 0: at once."""

    reaction_ms: int = 0
    spread_ms: int = 0


class GameDefaults:
    """The defaults of ``Game``'s optional hooks: a registry entry inherits them and overrides what its game has."""

    __slots__ = ()
    realtime: bool = False
    bot_pace: BotPace = BotPace()

    def received(self, action: Any, at_ms: int) -> Any:
        return action


class StateDefaults:
    """The defaults of ``GameState``'s optional hooks: put it last among a state's bases."""

    __slots__ = ()

    @property
    def score(self) -> int | None:
        return None

    def timer(self) -> Timer | None:
        return None

    def results(self, count: int) -> list[str | None]:
        return [None] * count

    def stats(self) -> dict[str, int]:
        return {}

    def reaction_key(self, seat: int) -> Any:
        state: AnyState = self  # type: ignore[assignment]
        return [action.to_dict() for action in state.legal_actions(seat)]

    def estimate(self, seat: int) -> float | None:
        return None
