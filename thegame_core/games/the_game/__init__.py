"""The Game (Steffen Benndorf): 98 cards, four piles, no numbers spoken. Rules: ``docs/rules/the-game.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...errors import InvalidSetup
from ...outcome import Outcome
from ...protocol import BotFactory
from .actions import PILES, SIGNAL_KINDS, Action, EndTurn, Play, Signal, action_from_dict
from .bots.basic import GreedyBot, RandomBot
from .bots.best import BestBot
from .codec import state_from_dict, state_to_dict
from .info import INFO
from .options import MAX_HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PRESETS, STUCK_POLICIES, Options, resolve_options
from .rules import CARDS_IN_DECK
from .state import FULL_DECK, GAME_NAME, State, shuffled_deck
from .views import Observation

__all__ = [
    "CARDS_IN_DECK",
    "GAME",
    "MAX_HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PILES",
    "PRESETS",
    "SIGNAL_KINDS",
    "STUCK_POLICIES",
    "Action",
    "EndTurn",
    "Observation",
    "Options",
    "Outcome",
    "Play",
    "Signal",
    "State",
    "TheGame",
]


class TheGame:
    """The registry entry for The Game."""

    name = GAME_NAME
    info = INFO
    bots: ClassVar[Mapping[str, BotFactory]] = {"random": RandomBot, "greedy": GreedyBot, "best": BestBot}

    def new_game(
        self,
        *,
        players: int,
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        options: Mapping[str, Any] | None = None,
        first_seat: int = 0,
    ) -> State:
        """A dealt game from ``seed`` or an explicit ``deck`` (draw order), not both."""
        resolved = resolve_options(players, options)
        if seed is not None and deck is None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise InvalidSetup(f"seed must be an integer, got {seed!r}")
            deck = shuffled_deck(seed)
        elif deck is None or seed is not None:
            raise InvalidSetup("give exactly one of seed or deck")
        return State.start(resolved, deck, first_seat)

    def lobby_view(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The table before the deal: the piles at their bases, every card still to draw, no hand."""
        view = State.start(resolve_options(players, options), FULL_DECK).public_view()
        view.update(status="lobby", outcome=None, current_seat=None, waiting_for=[], draw_pile=CARDS_IN_DECK)
        view.update(score=CARDS_IN_DECK, placed_this_turn=0, required_this_turn=0, signals=[])
        for entry in view["seats"]:
            entry["hand_size"] = 0
        return view

    def replay(self, record: Mapping[str, Any]) -> State:
        """Rebuild a game from ``State.replay_record()`` (or the service's log ``replay``)."""
        try:
            options = record["options"]
            players = record.get("players", options.get("players"))
            start = State.start(resolve_options(players, options), record["deck"], record.get("first_seat", 0))
            actions = record["actions"]
        except (KeyError, AttributeError, TypeError) as error:
            raise InvalidSetup(f"a replay record needs options, deck and actions: {error}") from None
        return start.apply_all(action_from_dict(action) for action in actions)

    def to_dict(self, state: State) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        return state_from_dict(data)

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        return action_from_dict(data)


GAME = TheGame()
