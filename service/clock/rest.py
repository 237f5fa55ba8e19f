"""Rests that keep background bot work to a share of a process's time (the daily yardstick, analyses)."""

from __future__ import annotations

import time

#: The least work (seconds) between two rests: a rest before every one of a game's quick decisions (Bataille corse's
#: bots decide in microseconds) would spend more on sleeping, a greenlet switch and a timer each, than on the work.
LEAST_WORK = 0.01


class Rest:
    """Called before each decision: once at least ``LEAST_WORK`` seconds of work went by since the last rest, sleeps
    so that the work takes at most ``share`` percent of the time."""

    def __init__(self, share: int) -> None:
        self.share = share / 100
        self.since = time.perf_counter()

    def __call__(self) -> None:
        spent = time.perf_counter() - self.since
        if spent < LEAST_WORK:
            return
        time.sleep(spent * (1 - self.share) / self.share)  # under gevent, requests run meanwhile
        self.since = time.perf_counter()
