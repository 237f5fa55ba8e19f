"""A Server-Sent Events parser, as browsers parse ``text/event-stream`` (the WHATWG "event stream" rules).

Bytes arrive in chunks cut anywhere (inside a UTF-8 character, between the CR and LF of one line ending), so the
parser keeps what it has not finished: ``feed(chunk)`` returns the events the chunk completes. Lines end with CRLF,
LF or CR; a line starting with ``:`` is a comment (a keep-alive); ``data`` lines add up, joined by newlines; ``id``
sets the last event id, which every later event carries until another ``id`` line; ``retry`` sets the reconnection
delay; a blank line dispatches the event, if it has data.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

__all__ = ["Event", "EventParser"]

_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Event:
    """One dispatched event: its type (``message`` when no ``event`` line named one), its data, and the last
    event id seen so far (``""`` before any)."""

    data: str
    event: str = "message"
    id: str = ""


class EventParser:
    """Turns an event stream's bytes into ``Event`` objects; ``last_event_id`` and ``retry`` (milliseconds, or
    ``None`` until the server sets it) are what a reconnection needs."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._line = ""  # the unfinished line
        self._after_cr = False  # the last line ended with CR: a LF opening the next chunk belongs to it
        self._started = False  # a byte order mark is skipped at the very start only
        self._data: list[str] = []
        self._event = ""
        self.last_event_id = ""
        self.retry: int | None = None

    def feed(self, chunk: bytes) -> list[Event]:
        """The events that ``chunk`` completes, in order."""
        text = self._decoder.decode(chunk)
        if not text:  # nothing yet, or only part of a character: a pending CR stays pending
            return []
        if not self._started:
            self._started = True
            text = text.removeprefix("\ufeff")
        events: list[Event] = []
        start = 1 if self._after_cr and text.startswith("\n") else 0
        self._after_cr = False
        for end in _LINE_END.finditer(text, start):
            self._line += text[start : end.start()]
            self._finish_line(events)
            start = end.end()
            self._after_cr = end.group() == "\r" and start == len(text)
        self._line += text[start:]
        return events

    def _finish_line(self, events: list[Event]) -> None:
        line, self._line = self._line, ""
        if not line:
            self._dispatch(events)
        elif not line.startswith(":"):
            name, colon, value = line.partition(":")
            self._field(name, value[1:] if colon and value.startswith(" ") else value)

    def _field(self, name: str, value: str) -> None:
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self.last_event_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry = int(value)

    def _dispatch(self, events: list[Event]) -> None:
        data, event = self._data, self._event
        self._data, self._event = [], ""
        if data:
            events.append(Event("\n".join(data), event or "message", self.last_event_id))
