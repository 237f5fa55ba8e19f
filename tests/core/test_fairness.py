"""``deal_matches``: a finished game of every game checked against its seed and the seed's commitment."""

from __future__ import annotations

import random

import pytest

import thegame_core as tg
from thegame_core.daily import seed_commitment


@pytest.mark.parametrize("game", tg.game_names())
def test_a_finished_game_matches_its_seed_and_no_other(game: str) -> None:
    state = tg.new_game(game, 2, seed=1234)
    rng = random.Random(1)
    while state.status == "playing":
        seat = sorted(state.waiting_for)[0] if state.waiting_for else state.asking_order()[0]
        state = state.apply(rng.choice(state.legal_actions(seat)))
    record = state.replay_record()
    assert tg.deal_matches(record, 1234, seed_commitment(1234))
    assert not tg.deal_matches(record, 1235, seed_commitment(1235))
    assert not tg.deal_matches(record, 1234, seed_commitment(1235))
    assert not tg.deal_matches({"game": game}, 1234, seed_commitment(1234))  # no game deals that
