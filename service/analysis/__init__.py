"""Analyses of finished games (``thegame_core.analysis``), worked out on the job queue (``service/jobs.py``) by
worker processes: they take seconds of CPU, far too long for a request, and never run in a web process.

- ``store``: the analysis of a game in Redis, kept as long as the game (on the game's slot).
- ``waiting``: the analyses on the queue (the queue's Redis): position, progress, the workers' pace.
- ``work``: asking for one (its parts queued) and working a part out.
"""

from __future__ import annotations

from .store import AnalysisStore
from .waiting import AnalysisQueue
from .work import Analyses

__all__ = ["Analyses", "AnalysisQueue", "AnalysisStore"]
