"""Bataille corse (Egyptian Ratscrew with combination slaps; rules: ``docs/rules/bataille-corse.md``, C1-C10).

The only real-time game of the library: any seat allowed to slap may do so at any moment, carrying the
``pile_version`` it saw; a referee (the simulator, the service) orders the slaps, and the first applied wins.
Where the rules leave a choice, this package decides as follows (each covered by a test):

- **Cards** are strings outside (``"AS"``, ``"10H"``, ``"RJ"``), ints inside (``cards``). The deck is the deal
  order, one card at a time clockwise from ``first_seat``; a packet is a queue; a collected pile goes to its end:
  the penalty cards in the order paid, then the face-up cards in the order played.
- **Order of checks** for a slap: game over, shape, a ``pile_version`` above the current one (never shown:
  ``invalid_action``), an older one (stale: a no-op that only counts in the version and the log), then an empty
  pile (``empty_pile``) and a seat that may not slap (``cannot_slap``), then valid or false.
- **After every action** what follows by itself is applied at once (``engine.Table.settle``): a payer without cards
  borrows on its next flip, or the challenger collects when nobody holds a card; with ``transfer_to_next`` the
  attempts left pass to the next seat holding cards (never the challenger); a seat on turn that paid its last cards
  passes the turn on; with nobody holding a card and no challenge, the last seat that flipped collects.
- **IN and OUT**: a seat is IN while it holds cards or is the open challenge's challenger or payer; ``state`` in the
  views says so. A seat's ranking place comes from the last action that put it OUT.
- **Results**: each slap of the history carries what it did (``"valid"``, ``"false"``, ``"stale"``), shown in the
  log (``"result"``) and by ``State.results(count)``; a flip has none.
- **Snapshots** write the history as one compact string (``actions.notation``): about a byte an action.
- **The collection window** (``slap_window_ms``): the referee stamps each slap with its receive time
  (``BatailleCorse.received``), the state's ``timer()`` says when the open window closes, and the referee then
  applies its ``Judge`` (``engine``'s docstring has the rules).
"""

from __future__ import annotations

from typing import Any

from ...dealt import DealtGame, Hooks
from ...errors import CorruptState
from ...protocol import BotFactory, BotPace, GameInfo
from ...reaction import DEFAULT_LEVEL, LEVELS
from .actions import FLIPS, Action, Flip, Judge, Slap, action_from_dict, last_at, notation, tokens
from .bots import BOTS
from .cards import NAMES, shuffled_deck
from .info import INFO
from .options import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Options, resolve_options
from .rules import combinations, slappable
from .state import State
from .views import GAME_NAME, Observation, lobby_view, observation_from_view

__all__ = [
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAMES",
    "PRESETS",
    "Action",
    "BatailleCorse",
    "Flip",
    "Judge",
    "Observation",
    "Options",
    "Slap",
    "State",
    "combinations",
    "slappable",
]


class BatailleCorse(DealtGame[State, Action, Observation]):
    """The registry entry for Bataille corse (``protocol.Game``). ``realtime``: a referee races its seats."""

    name = GAME_NAME
    info: GameInfo = INFO
    realtime = True
    #: Its bots' "normal" reaction level (``thegame_core.reaction``), with its spread.
    bot_pace = BotPace(round(LEVELS[DEFAULT_LEVEL].mean_ms), round(LEVELS[DEFAULT_LEVEL].spread_ms))

    hooks = Hooks(resolve_options, State.start, action_from_dict, observation_from_view, lobby_view)

    def __init__(self) -> None:
        self.bots: dict[str, BotFactory] = dict(BOTS)

    def shuffled_deck(self, seed: int, options: Any = None) -> tuple[str, ...]:
        return shuffled_deck(seed, options is not None and options.jokers)

    def received(self, action: Action, at_ms: int) -> Action:
        """A slap received by the referee at ``at_ms``: its time judges a collection window (kept only there)."""
        return Slap(action.seat, action.pile_version, at=at_ms) if type(action) is Slap else action

    def history_notation(self, state: State) -> str:
        return notation(state.history)

    def replay_history(self, start: State, history: Any, done: int) -> State:
        """Apply the notation's actions after the first ``done``, one at a time: a flip is the seat on turn's, a late
        slap's version is counted back from the pile version at its place, a gathered slap's time from the one
        before it, a judge closes the window. The time the first one counts from is looked up in ``start``'s
        history only when a gathered slap comes: a game without a window has none."""
        if type(history) is not str:
            raise CorruptState("a Bataille corse history is one notation string")
        state = start
        at: int | None = None
        for token in tokens(history)[done:]:
            seat = token.seat
            if seat is None:
                action: Action = FLIPS[state.current]
            elif seat < 0:
                action = Judge(0)
            else:
                if token.delta is not None:
                    at = (last_at(start.history) if at is None else at) + token.delta
                action = Slap(seat, state.pile_version - token.behind, at=None if token.delta is None else at)
            state = state.apply(action)
        return state


GAME = BatailleCorse()
