"""Every game of the library, one package each, registered here (one line per game)."""

from __future__ import annotations

from ..protocol import Game
from ..registry import register
from . import bataille_corse, ninja, the_game

# Each entry typed with its game's own actions and observations: mypy checks it against the protocol.
THE_GAME: Game[the_game.Action, the_game.Observation] = the_game.GAME
NINJA: Game[ninja.Action, ninja.Observation] = ninja.GAME
BATAILLE_CORSE: Game[bataille_corse.Action, bataille_corse.Observation] = bataille_corse.GAME

register(THE_GAME)
register(NINJA)
register(BATAILLE_CORSE)
