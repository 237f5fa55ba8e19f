"""Snap, a toy game registered only by the tests and the walk-through (``examples/README.md``): it proves that a
game is one package plus its registration.

The current seat flips the next card of the deck onto the pile; the turn passes on. When the top card is even,
any seat may ``snap`` at any time, carrying the pile version it saw (``seen``: flips and snaps so far, shown as
``pile_version``), like a Bataille corse slap: the first snap the game applies scores a point and clears the pile;
a snap carrying an older pile version is stale and is applied as a no-op that only counts in the version; a fresh
snap on an odd card is refused (``nothing_to_snap``). The game ends with the last flip; most points wins, ties by
seat order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, NamedTuple

from thegame_core.dealt import Recorded, Seen, checked_first_seat
from thegame_core.errors import CorruptState, GameOver, IllegalAction, InvalidAction, InvalidSetup, NotYourTurn
from thegame_core.option_table import check_players, resolve
from thegame_core.outcome import Outcome, Progress
from thegame_core.protocol import ActionInfo, BotFactory, GameDefaults, GameInfo, OptionInfo, StateDefaults

NAME = "toy-snap"


class Flip(NamedTuple):
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "flip", "seat": self.seat}


class Snap(NamedTuple):
    seat: int
    seen: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "snap", "seat": self.seat, "seen": self.seen}


Action = Flip | Snap


@dataclass(frozen=True)
class Options:
    players: int
    cards: int = 8

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "cards": self.cards}


def _options(players: Any, options: Mapping[str, Any] | None) -> Options:
    """Checked against the options as ``INFO`` describes them (``option_table``), as the real games do."""
    return resolve(check_players(players, 2, 4), options or {}, INFO.options, INFO.presets, Options)


@dataclass(slots=True)
class View(Seen):
    """What a seat (or a spectator) sees: everything but the order of the deck. ``Seen`` holds the fields every
    observation starts with and builds the dict form; a game gives its ``seats()``, ``table()`` and legal actions."""

    game: ClassVar[str] = NAME

    options: Options
    pile: tuple[int, ...]
    pile_version: int
    left: int
    points: tuple[int, ...]
    legal: tuple[Action, ...] = ()

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    def seats(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "points": points} for seat, points in enumerate(self.points)]

    def table(self) -> dict[str, Any]:
        return {"pile": list(self.pile), "pile_version": self.pile_version, "deck": self.left}


@dataclass(frozen=True)
class State(Progress, Recorded, StateDefaults):
    game: ClassVar[str] = NAME
    options: Options
    deck: tuple[int, ...]
    first_seat: int
    flipped: int = 0
    pile: tuple[int, ...] = ()
    pile_version: int = 0
    points: tuple[int, ...] = ()
    current_seat: int = 0
    history: tuple[Action, ...] = ()
    outcome: Outcome | None = field(default=None)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def waiting_for(self) -> frozenset[int]:
        return frozenset() if self.outcome else frozenset((self.current_seat,))

    @property
    def turns(self) -> int:
        return self.flipped

    def legal_actions(self, seat: int) -> list[Action]:
        if self.outcome is not None:
            return []
        actions: list[Action] = [Flip(seat)] if seat == self.current_seat else []
        if self.pile and self.pile[-1] % 2 == 0:
            actions.append(Snap(seat, self.pile_version))
        return actions

    def asking_order(self) -> tuple[int, ...]:
        if self.outcome is not None:
            return ()
        return tuple((self.current_seat + step) % self.players for step in range(self.players))

    def apply(self, action: Any) -> State:
        if self.outcome is not None:
            raise GameOver("the game is over")
        if type(action) not in (Flip, Snap) or type(action.seat) is not int or not 0 <= action.seat < self.players:
            raise InvalidAction(f"not an action of {NAME}: {action!r}")
        history = (*self.history, action)
        if isinstance(action, Snap):
            if type(action.seen) is not int or not 0 <= action.seen <= self.pile_version:
                raise InvalidAction(f"seen must be a pile version from 0 to {self.pile_version}")
            if action.seen < self.pile_version:  # stale: the pile changed since; applied as a no-op
                return replace(self, history=history)
            if not self.pile or self.pile[-1] % 2:
                raise IllegalAction("the top card is not even", code="nothing_to_snap")
            points = tuple(p + (seat == action.seat) for seat, p in enumerate(self.points))
            return replace(self, pile=(), pile_version=self.pile_version + 1, points=points, history=history)
        if action.seat != self.current_seat:
            raise NotYourTurn(f"it is seat {self.current_seat}'s turn")
        flipped = self.flipped + 1
        after = replace(
            self,
            flipped=flipped,
            pile=(*self.pile, self.deck[self.flipped]),
            pile_version=self.pile_version + 1,
            current_seat=(self.current_seat + 1) % self.players,
            history=history,
        )
        return after if flipped < len(self.deck) else replace(after, outcome=_outcome(after))

    def apply_all(self, actions: Iterable[Any]) -> State:
        state = self
        for action in actions:
            state = state.apply(action)
        return state

    def resample(self, seat: int, rng: random.Random) -> State:
        """The deck as ``seat`` may believe it to be: it sees the pile, so every other card is dealt anew at random."""
        cards = [card for card in range(1, self.options.cards + 1) if card not in self.pile]
        rng.shuffle(cards)
        gone = self.flipped - len(self.pile)  # flipped, then snapped away
        return replace(self, deck=(*cards[:gone], *self.pile, *cards[gone:]))

    def observe(self, seat: int | None) -> View:
        legal = () if seat is None else tuple(self.legal_actions(seat))
        left = len(self.deck) - self.flipped
        return View(
            seat,
            self.options,
            self.current_seat,
            self.waiting_for,
            self.history,
            self.outcome,
            self.pile,
            self.pile_version,
            left,
            self.points,
            legal,
        )

    def view(self, seat: int) -> dict[str, Any]:
        return self.observe(seat).to_dict()

    def public_view(self) -> dict[str, Any]:
        return self.observe(None).to_dict()


def _outcome(state: State) -> Outcome:
    order = sorted(range(state.players), key=lambda seat: (-state.points[seat], seat))
    return Outcome("finished", "deck_exhausted", winner=order[0], ranking=tuple(order))


class SnapHappy:
    """Snaps whenever it can, flips on its turn."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: View) -> list[Action]:
        snaps = [a for a in observation.legal if isinstance(a, Snap)]
        return snaps[:1] or [a for a in observation.legal if isinstance(a, Flip)]


class Dawdler(SnapHappy):
    """Snaps half the time it could."""

    def act(self, observation: View) -> list[Action]:
        if any(isinstance(a, Snap) for a in observation.legal) and self.rng.random() < 0.5:
            return [a for a in observation.legal if isinstance(a, Flip)]
        return super().act(observation)


INFO = GameInfo(
    name=NAME,
    title="Snap (toy)",
    min_players=2,
    max_players=4,
    cooperative=False,
    cards="ints 1..cards, each once, in flip order",
    options=(
        OptionInfo("preset", "str", "standard", "quick: 4 cards", choices=("standard", "quick")),
        OptionInfo("cards", "int", 8, "cards in the deck", min=4, max=20),
    ),
    presets={"standard": {}, "quick": {"cards": 4}},
    actions=(
        ActionInfo("flip", "your turn: flip the next card"),
        ActionInfo("snap", "any time the top card is even: snap, with the pile version you saw", {"seen": "int"}),
    ),
    view={
        "pile": {"type": "array", "items": {"type": "integer"}},
        "pile_version": {"type": "integer"},
        "deck": {"type": "integer"},
    },
    seat_view={},
    errors={"nothing_to_snap": "the top card is not even"},
    outcome_reasons={"deck_exhausted": "the last card was flipped"},
)


class SnapGame(GameDefaults):
    name = NAME
    info = INFO
    bots: ClassVar[Mapping[str, BotFactory]] = {"random": Dawdler, "greedy": SnapHappy, "best": SnapHappy}

    def new_game(
        self,
        *,
        players: int,
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        options: Mapping[str, Any] | None = None,
        first_seat: int = 0,
    ) -> State:
        resolved = _options(players, options)
        if (seed is None) == (deck is None):
            raise InvalidSetup("give exactly one of seed or deck")
        cards = list(range(1, resolved.cards + 1))
        if deck is None:
            deck = random.Random(seed).sample(cards, len(cards))
        if sorted(deck) != cards or any(type(card) is not int for card in deck):
            raise InvalidSetup(f"deck must hold 1..{resolved.cards} once each")
        checked_first_seat(first_seat, players)
        return State(resolved, tuple(deck), first_seat, points=(0,) * players, current_seat=first_seat)

    def lobby_view(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        resolved = _options(players, options)
        return View.lobby_view(resolved, pile=(), pile_version=0, left=resolved.cards, points=(0,) * players)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        try:
            if data["type"] == "flip":
                return Flip(data["seat"])
            if data["type"] == "snap":
                return Snap(data["seat"], data["seen"])
        except (KeyError, TypeError) as error:
            raise InvalidAction(f"bad action: {error}") from None
        raise InvalidAction(f"unknown action type {data.get('type')!r}")

    def observation_from_view(self, view: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> View:
        history = tuple(map(self.parse_action, actions))
        return View(
            **Seen.seen_in(view, _options(view["players"], view["options"]), history),
            pile=tuple(view["pile"]),
            pile_version=view["pile_version"],
            left=view["deck"],
            points=tuple(entry["points"] for entry in view["seats"]),
            legal=Seen.legal_in(view, self.parse_action),
        )

    def replay(self, record: Mapping[str, Any]) -> State:
        start = self.new_game(
            players=record["players"], deck=record["deck"], options=record["options"], first_seat=record["first_seat"]
        )
        return start.apply_all(self.parse_action(action) for action in record["actions"])

    def to_dict(self, state: State) -> dict[str, Any]:
        return {"format": 1, **state.replay_record()}

    def from_dict(self, data: Mapping[str, Any]) -> State:
        try:
            return self.replay(data)
        except (KeyError, TypeError, ValueError) as error:
            raise CorruptState(f"damaged {NAME} snapshot: {error}") from None


GAME = SnapGame()
