"""Progress of a long run on standard error: done of total, rate, time left (``simulate``, bench scripts).

On a terminal the line is redrawn in place at most ``every`` seconds; elsewhere (a log, a pipe: only when asked)
one line is written every ``every`` seconds, so a log shows that the run is alive without filling up. The last
update always writes, and ends the line.

Hand-written rather than tqdm or rich: the core promises the standard library only, so either would be an optional
extra with a plain fallback written anyway, and that fallback (one line of figures) is all a run needs; one code
path, tested, instead of two.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "duration", "on_terminal", "wanted"]


def duration(seconds: float) -> str:
    """A short human duration: ``"<1 s"``, ``"42 s"``, ``"3 min 5 s"``, ``"2 h 10 min"``."""
    whole = round(seconds)
    if whole < 1:
        return "<1 s"
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def wanted(quiet: bool, forced: bool, stream: TextIO | None = None) -> bool:
    """Whether a command shows progress: not with ``--quiet``; with ``--progress``; else when ``stream`` (default:
    standard error) is a terminal."""
    if quiet:
        return False
    return forced or (stream if stream is not None else sys.stderr).isatty()


class Progress:
    """Call it with ``(done, total)`` as work gets done (the ``progress`` callback of ``simulate``).

    ``stream`` defaults to standard error; ``clock`` is injected so that tests need no real time.
    """

    def __init__(
        self,
        unit: str = "games",
        *,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        every: float | None = None,
    ) -> None:
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.live = self.stream.isatty()
        self.every = every if every is not None else (0.2 if self.live else 10.0)
        self.started = clock()
        self._shown_at: float | None = None
        self._width = 0

    def line(self, done: int, total: int, now: float) -> str:
        """The figures at ``now``: done of total, the share, the rate so far, and the time left at that rate."""
        elapsed = now - self.started
        share = done / total if total else 1.0
        text = f"{done:,}/{total:,} {self.unit} ({share:.0%})"
        if done and elapsed > 0:
            rate = done / elapsed
            shown = f"{rate:.1f}" if rate < 10 else f"{rate:,.0f}"
            text += f"  {shown} {self.unit}/s"
            left = duration((total - done) / rate)
            text += f"  {duration(elapsed)} in all" if done >= total else f"  about {left} left".replace("about <", "<")
        return text

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        finished = done >= total
        if not finished and self._shown_at is not None and now - self._shown_at < self.every:
            return
        self._shown_at = now
        text = self.line(done, total, now)
        if self.live:
            self.stream.write("\r" + text.ljust(self._width) + ("\n" if finished else ""))
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()


def on_terminal(unit: str = "games") -> Callable[[int, int], None]:
    """A ``Progress`` when standard error is a terminal, else a callback that shows nothing: for scripts with no
    flag for it."""
    return Progress(unit) if wanted(quiet=False, forced=False) else lambda done, total: None
