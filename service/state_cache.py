"""States by their stored snapshot text, kept per worker process.

Reading a snapshot replays its history (the core refuses any state no game can reach), which grows
with the game: up to half a millisecond late in a game. States are immutable, so a worker can hand
the same object to every request that reads the same text: the state it just wrote, or read, is
found again without replaying. Least recently used entries are dropped past ``capacity``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import thegame_core as tg


class StateCache:
    def __init__(self, capacity: int = 1024) -> None:
        self.capacity = capacity
        self._states: OrderedDict[str, tg.GameState] = OrderedDict()
        self._lock = threading.Lock()  # gthread workers serve several requests at once

    def load(self, text: str) -> tg.GameState:
        """The state ``text`` holds (``tg.CorruptState`` if it holds none)."""
        with self._lock:
            state = self._states.get(text)
            if state is not None:
                self._states.move_to_end(text)
                return state
        state = tg.loads(text)
        self.remember(text, state)
        return state

    def dump(self, state: tg.GameState) -> str:
        """The snapshot text of ``state``, remembered so that the next read of it needs no replay."""
        text = tg.dumps(state)
        self.remember(text, state)
        return text

    def remember(self, text: str, state: tg.GameState) -> None:
        with self._lock:
            self._states[text] = state
            self._states.move_to_end(text)
            while len(self._states) > self.capacity:
                self._states.popitem(last=False)


#: One per worker process.
STATES = StateCache()
