"""What one server process runs on, built once by the app factory and handed to every layer as plain objects:
the store, the lobby list, the event hub, the clock's runner, the settings, the time, the daily deals, the analyses
worker, the ratings and the limits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .analysis import AnalysisWorker
from .clock.runner import ClockRunner
from .config import Settings
from .daily import Daily
from .limits import Limits
from .ratings import Ratings
from .storage.lobby_index import LobbyIndex
from .storage.store import GameStore
from .streams.hub import Hub


@dataclass(frozen=True)
class Runtime:
    store: GameStore
    lobbies: LobbyIndex
    hub: Hub
    runner: ClockRunner
    settings: Settings
    clock: Callable[[], float]  # epoch seconds (``time.time`` unless a test moves time by hand)
    daily: Daily  # the daily deals' board and secret
    analyses: AnalysisWorker  # finished games' analyses, worked out in the background
    ratings: Ratings  # players' ratings of competitive games and their leaderboards
    limits: Limits | None = None  # None: limits off

    def now(self) -> float:
        return float(self.clock())
