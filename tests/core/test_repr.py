"""A state's repr is short and safe to log: game, players, version, status and seats to act, never a card."""

from __future__ import annotations

import thegame_core as tg
from thegame_core.bots import create_bot


def test_a_state_shows_who_acts_and_no_card() -> None:
    ninja = tg.new_game("ninja", players=3, seed=1)
    assert repr(ninja) == "<ninja, 3 players: version 0, playing, seats 0, 1, 2 to act>"
    solo = tg.new_game("the-game", players=1, seed=1)
    assert repr(solo) == "<the-game, 1 player: version 0, playing, seat 0 to act>"
    after = solo.apply(solo.legal_actions()[0])
    assert repr(after) == "<the-game, 1 player: version 1, playing, seat 0 to act>"


def test_a_finished_game_has_no_seat_to_act() -> None:
    state = tg.new_game("the-game", players=2, seed=3)
    bots = [create_bot("greedy", seed=seat) for seat in range(2)]
    while state.outcome is None:
        state = state.apply_all(bots[state.current_seat].act(state.observe(state.current_seat)))
    assert repr(state) == f"<the-game, 2 players: version {state.version}, {state.status}>"
    assert tg.loads(tg.dumps(state)) == state  # the whole state is in the snapshot
