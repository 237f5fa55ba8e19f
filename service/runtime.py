"""What one server process runs on, built once by the app factory and handed to every layer as plain objects:
the store, the lobby list, the event hub, the clock's runner, the settings, the time, the daily deals, the job queue,
the analyses, the players, the ratings, the store's eviction check, Play now's pairing and the limits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .analysis import Analyses
from .clock.runner import ClockRunner
from .config import Settings
from .daily import Daily
from .jobs import Jobs
from .limits import Limits
from .pairing import Pairing
from .players import Players
from .ratings import Ratings
from .storage.eviction import EvictionGuard
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
    jobs: Jobs  # the job queue: its workers run the analyses and the yardsticks
    analyses: Analyses  # finished games' analyses, worked out on the job queue
    players: Players  # players' accounts, their games' index and link codes
    ratings: Ratings  # players' ratings of competitive games and their leaderboards
    eviction: EvictionGuard  # refuses to serve on a Redis that may evict games
    pairing: Pairing  # Play now: seekers seated in lobbies that fit
    limits: Limits | None = None  # None: limits off

    def now(self) -> float:
        return float(self.clock())
