"""Is risk slapping worth it when a blind slap is quicker than a seen one? The simulator, with ``risk`` variants.

    python bench/risk_slapping.py --bots risk@quick=200@pile=4,best --duplicate --games 2000 --option penalty_count=3

It is ``python -m thegame_core simulate --game bataille-corse`` with its arguments, after registering every bot
named ``risk@quick=N@pile=P`` in them (either field may be left out): Bataille corse's ``risk`` (``best``, and a
blind slap on every card once the pile holds P cards, 10 by default), whose blind slaps come N ms sooner than the
slaps it looks before. A published study of simulated games
(arXiv 2304.01007) found risk slapping ahead where a burn is cheap; its players slap blindly without the time it
takes to recognise a combination, which our reaction model (``thegame_core/reaction.py``) counts in every slap.
A quick blind slap is that premise; docs/bots.md reports what it changes.
"""

from __future__ import annotations

import sys
from functools import partial

from bot_variants import variants

from thegame_core.__main__ import main as cli_main
from thegame_core.bots import register_bot
from thegame_core.games.bataille_corse.bots import RISK_PILE, RiskBot

GAME = "bataille-corse"


def register(argv: list[str]) -> None:
    """Every ``risk@quick=N@pile=P`` bot named in ``argv``."""
    for name, fields in variants(argv, "risk"):
        quick, pile = float(fields.pop("quick", 0)), int(fields.pop("pile", RISK_PILE))
        if fields:
            raise SystemExit(f"{name}: risk takes quick and pile, not {', '.join(fields)}")
        register_bot(GAME, name, partial(RiskBot, quick_ms=quick, pile=pile))


def main(argv: list[str]) -> int:
    register(argv)
    return cli_main(["simulate", "--game", GAME, *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
