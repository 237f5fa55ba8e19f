"""Analyses of finished games (``thegame_core.analysis``), worked out in the background: they take seconds to
minutes of CPU, far too long for a request.

- ``store``: the analysis of a game in Redis, kept as long as the game, and the lease one process holds while it
  works it out (on the game's slot).
- ``worker``: each process's queue and the one thread (a greenlet under gevent) that works them out in turn, resting
  so that it takes at most ``TG_BOT_SHARE`` percent of the process.
"""

from __future__ import annotations

from .store import AnalysisStore
from .worker import AnalysisWorker

__all__ = ["AnalysisStore", "AnalysisWorker"]
