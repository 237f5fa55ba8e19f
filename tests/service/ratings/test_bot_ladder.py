"""The bots' ladder (bench/bot_ladder.py): every level of a game rated on the players' scale from duplicate deals,
by the code that rates people, in memory only."""

from __future__ import annotations

import io
from contextlib import redirect_stderr

from bench.bot_ladder import ladder


def test_every_bot_meets_every_other_on_the_same_deals_and_best_beats_random() -> None:
    with redirect_stderr(io.StringIO()) as progress:
        found = ladder("bataille-corse", 2, 2, workers=1, seed=1)
    assert set(found) == {"random", "greedy", "best", "risk", "sloppy"}
    assert {games for _, games in found.values()} == {16}  # 4 rivals, 2 deals, 2 rotations each
    assert list(found)[-1] == "random"  # listed best first
    assert found["best"][0].shown > found["random"][0].shown
    assert "games" in progress.getvalue()
