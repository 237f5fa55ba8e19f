"""Following a game's event stream through network trouble: every view the seat may see, in order, once.

The stream (``GET /v1/games/{id}/events``) sends the caller's full view first, then one ``view`` event per change with
``id: <version>.<nonce>`` (the ETag's tag), and comment lines as keep-alives at least every 15 seconds; once the game
is over it stays open for the rematch (whose view carries the seat's new token), then closes. A read that waits longer
than ``READ_TIMEOUT`` means the connection is dead. After a network error, a timeout or a close, ``follow`` reconnects
with ``Last-Event-ID`` (the server then sends what was missed), after a pause that doubles at each failure in a row
(``Backoff``), and skips any view not newer than one already given, unless it is another state at a version already
given: Redis lost the writes after it (a crash, a failover), the server sent the game as it now stands, and the
client takes it (``Seen.resync``).
"""

from __future__ import annotations

import json
import time
import urllib.error
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .api import NETWORK_ERRORS, Api, ApiError
from .sse import EventParser

__all__ = ["READ_TIMEOUT", "Backoff", "GaveUp", "Seen", "follow", "trouble"]

NO_CONTENT = 204

#: Seconds without a byte before the connection counts as dead: three keep-alive periods of 15 seconds.
READ_TIMEOUT = 45.0


class GaveUp(Exception):
    """The server stayed unreachable for ``Backoff.attempts`` tries in a row."""


def trouble(error: Exception) -> str:
    """What kept a request from its answer, for a person."""
    if isinstance(error, ApiError):
        return f"the server says to wait ({error})"
    if isinstance(error, urllib.error.URLError):
        return f"the server does not answer ({error.reason})"
    return f"the connection broke ({error})"


@dataclass
class Backoff:
    """Pauses between attempts: ``first`` seconds, doubling up to ``most``; ``reset()`` after a success.
    ``report`` hears one line per failure before its pause (what went wrong, the count, the pause); ``sleep`` is
    injected so that tests never wait."""

    first: float = 0.5
    most: float = 30.0
    attempts: int = 10
    sleep: Callable[[float], None] = time.sleep
    report: Callable[[str], None] = lambda line: None
    failures: int = field(default=0, init=False)

    def reset(self) -> None:
        self.failures = 0

    def wait(self, error: Exception, at_least: float = 0.0) -> None:
        """Pause before the next attempt after ``error``; ``GaveUp`` after too many failures in a row."""
        self.failures += 1
        if self.failures > self.attempts:
            raise GaveUp(f"the server did not answer {self.attempts} times in a row: {error}") from error
        pause = max(at_least, min(self.most, self.first * 2 ** (self.failures - 1)))
        self.report(f"{trouble(error)}; retry {self.failures} of {self.attempts} in {pause:g} s")
        self.sleep(pause)


class Seen(NamedTuple):
    """A view as the stream gave it: its ``tag`` (the event's id: ``If-Match`` sends it back), and whether it
    replaces views already given whose writes Redis lost (``resync``: its version is not higher than theirs)."""

    view: dict[str, Any]
    tag: str
    resync: bool


def follow(api: Api, backoff: Backoff, read_timeout: float = READ_TIMEOUT) -> Iterator[Seen]:
    """The seat's views as the stream sends them, across reconnections, each version once and in order (but after
    a loss of writes: see ``Seen``); it ends when the server answers ``204`` (the game is over and its rematch was
    sent: stop reconnecting). A refusal that retrying cannot cure (a bad token, an unknown game) raises
    ``ApiError``."""
    last_id, version = "", -1
    while True:
        parser = EventParser()
        try:
            with api.stream(last_id, read_timeout) as response:
                if response.status == NO_CONTENT:
                    return
                while chunk := response.read1(65536):
                    for event in parser.feed(chunk):
                        if event.event != "view":
                            continue
                        payload = json.loads(event.data)
                        tag, given = event.id or str(payload["version"]), last_id
                        last_id = tag
                        backoff.reset()
                        if payload["version"] > version or tag != given:
                            resync = payload["version"] <= version
                            version = payload["version"]
                            yield Seen(payload["view"], tag, resync)
            problem: Exception = ConnectionError("the server closed the stream")
        except ApiError as error:
            if not error.retryable:
                raise
            problem = error
        except NETWORK_ERRORS as error:
            problem = error
        retry = parser.retry / 1000 if parser.retry is not None else 0.0
        backoff.wait(problem, max(retry, getattr(problem, "retry_after", None) or 0.0))
