"""Every game of the library, one package each, registered here (one line per game)."""

from __future__ import annotations

from ..registry import register
from .bataille_corse import GAME as BATAILLE_CORSE
from .ninja import GAME as NINJA
from .the_game import GAME as THE_GAME

register(THE_GAME)
register(NINJA)
register(BATAILLE_CORSE)
