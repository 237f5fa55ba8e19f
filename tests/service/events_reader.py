"""Reading Server-Sent Events in the tests: from a Flask test client's streamed answer, or from raw lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    id: str | None
    event: str
    data: dict[str, Any]

    @property
    def view(self) -> dict[str, Any]:
        return self.data["view"]  # type: ignore[no-any-return]


def parse(block: str) -> Event | str:
    """One block of lines (up to a blank line): an event, or the block itself (a comment or a ``retry:``)."""
    fields: dict[str, str] = {}
    for line in block.splitlines():
        name, _, value = line.partition(": ")
        if name:
            fields[name] = value
    if "data" not in fields:
        return block
    return Event(fields.get("id"), fields.get("event", "message"), json.loads(fields["data"]))


def blocks(chunks: Iterable[bytes]) -> Iterator[str]:
    """The blocks of a stream, however its bytes were cut into chunks."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            yield block


class EventReader:
    """The events of one stream, in order, with its comments and other blocks noted aside."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._blocks = blocks(chunks)
        self.others: list[str] = []

    def next_block(self) -> Event | str:
        return parse(next(self._blocks))

    def next_event(self) -> Event:
        while isinstance(block := self.next_block(), str):
            self.others.append(block)
        return block

    def until(self, version: int) -> list[Event]:
        """Every event up to the one of ``version``."""
        events = [self.next_event()]
        while events[-1].data["version"] < version:
            events.append(self.next_event())
        return events

    def ended(self) -> bool:
        """Whether the stream ends with no further event (it closes, as after a finished game's last view)."""
        try:
            self.next_event()
        except StopIteration:
            return True
        return False
