"""The Game (Steffen Benndorf): 98 cards, four piles, no numbers spoken. Rules: ``docs/rules/the-game.md``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...dealt import DealtGame, Hooks, shuffled
from ...outcome import Outcome
from ...protocol import BotFactory
from .actions import PILES, SIGNAL_KINDS, Action, EndTurn, Play, Signal, action_from_dict, action_from_notation
from .bots.basic import GreedyBot, RandomBot
from .bots.best import BestBot
from .info import INFO
from .options import MAX_HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PRESETS, STUCK_POLICIES, Options, resolve_options
from .rules import CARDS_IN_DECK
from .state import FULL_DECK, GAME_NAME, State
from .views import Observation, lobby_view, observation_from_view

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


class TheGame(DealtGame[State, Action, Observation]):
    """The registry entry for The Game (``protocol.Game[Action, Observation]``)."""

    name = GAME_NAME
    info = INFO
    bots: ClassVar[Mapping[str, BotFactory]] = {"random": RandomBot, "greedy": GreedyBot, "best": BestBot}

    hooks = Hooks(
        resolve_options, State.start, action_from_dict, observation_from_view, lobby_view, action_from_notation
    )

    def shuffled_deck(self, seed: int, options: Any = None) -> tuple[int, ...]:
        return shuffled(FULL_DECK, seed)


GAME = TheGame()
