"""States by their stored snapshot text, kept per worker process.

Reading a snapshot replays its history (the core refuses any state no game reaches), which grows
with the game: up to half a millisecond late in a game of The Game. States are immutable, so a worker
can hand the same object to every request that reads the same text: the state it just wrote, or read,
is found again without replaying. A text not seen yet (another worker wrote it) is read on from the
newest state this worker holds of the same game, if any: only the actions since are applied
(``thegame_core.loads``' ``earlier``). Least recently used entries are dropped past ``capacity``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import thegame_core as tg


class StateCache:
    def __init__(self, capacity: int = 1024) -> None:
        self.capacity = capacity
        self._states: OrderedDict[str, tg.AnyState] = OrderedDict()
        self._newest: OrderedDict[str, str] = OrderedDict()  # a game's key -> its newest text held here
        self._lock = threading.Lock()  # gthread workers serve several requests at once

    def load(self, text: str, game: str) -> tg.AnyState:
        """The state ``text`` holds (``tg.CorruptState`` if it holds none). ``game`` names its game, to find an
        earlier state of it: a wrong name costs a whole replay, never a wrong state (the core checks the texts)."""
        with self._lock:
            state = self._states.get(text)
            if state is not None:
                self._states.move_to_end(text)
                return state
            newest = self._newest.get(game, "")
            held = self._states.get(newest)  # None if dropped since
        state = tg.loads(text, None if held is None else (newest, held))
        self.remember(text, state, game)
        return state

    def dump(self, state: tg.AnyState, game: str) -> str:
        """The snapshot text of ``state``, remembered so that the next read of it needs no replay."""
        text = tg.dumps(state)
        self.remember(text, state, game)
        return text

    def remember(self, text: str, state: tg.AnyState, game: str) -> None:
        with self._lock:
            self._states[text] = state
            self._states.move_to_end(text)
            held = self._states.get(self._newest.get(game, ""))
            if held is None or held.version <= state.version:
                self._newest[game] = text
                self._newest.move_to_end(game)
            while len(self._states) > self.capacity:
                self._states.popitem(last=False)
            while len(self._newest) > self.capacity:
                self._newest.popitem(last=False)


#: One per worker process.
STATES = StateCache()
