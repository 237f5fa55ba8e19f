"""A bot handed another game's observation says so with a typed error, whatever the bot and the games."""

from __future__ import annotations

import pytest

import thegame_core as tg
from thegame_core.bots import bot_names, create_bot

GAMES = ["the-game", "ninja"]
PAIRS = [(mine, other) for mine in GAMES for other in GAMES if mine != other]


@pytest.mark.parametrize(("mine", "other"), PAIRS)
def test_a_bot_of_one_game_refuses_another_game_s_observation(mine: str, other: str) -> None:
    state = tg.new_game(other, players=3, seed=1)
    for name in bot_names(mine):
        with pytest.raises(tg.WrongGame) as refused:
            create_bot(name, game=mine, seed=1).act(state.observe(0))
        assert refused.value.code == "wrong_game"
        assert (
            str(refused.value) == f"this bot plays {mine}, not {other}: create it with create_bot(name, game={other!r})"
        )


def test_a_bot_of_the_right_game_still_plays() -> None:
    state = tg.new_game("ninja", players=3, seed=1)
    assert create_bot("greedy", game="ninja", seed=1).act(state.observe(0))  # the swap phase: ready
