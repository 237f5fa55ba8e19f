"""Rests that keep background bot work to a share of a process's time (the daily yardstick, analyses)."""

from __future__ import annotations

import time


class Rest:
    """Called before each decision: sleeps so that the work takes at most ``share`` percent of the time."""

    def __init__(self, share: int) -> None:
        self.share = share / 100
        self.since = time.perf_counter()

    def __call__(self) -> None:
        spent = time.perf_counter() - self.since
        time.sleep(spent * (1 - self.share) / self.share)  # under gevent, requests run meanwhile
        self.since = time.perf_counter()
