"""The fast path agrees with the rules: every (state, action) pair gives the same state, or the same error, through
``fast_path.step`` as through ``engine.step``.

States come from random games over every player count, every preset, each option at each of its values, and
random mixes of options (a small ``max_turns`` among them, so games reach their turn limit). At each state the
pairs are a sample of the legal actions of the seats asked, plus random probes, many of them refused (wrong seat,
wrong phase, cards not held, illegal groups, malformed fields). Every option's game is played, then random mixes
until ``TG_AGREEMENT_PAIRS`` pairs were tried (default 10,000, under a second). After a change to either path, run
the long form once (100,000 pairs, about 5 s):

    TG_AGREEMENT_PAIRS=100000 .venv/bin/pytest tests/games/ninja/test_fast_path.py
"""

from __future__ import annotations

import itertools
import os
import random
import typing
from collections.abc import Iterator
from typing import Any

import thegame_core as tg
from thegame_core.games.ninja import (
    Accept,
    Complete,
    Give,
    PickUp,
    Play,
    Ready,
    State,
    Swap,
    TakeFaceUp,
    engine,
    fast_path,
)
from thegame_core.games.ninja.actions import Action
from thegame_core.games.ninja.options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, PRESETS

from .helpers import new

PAIRS = int(os.environ.get("TG_AGREEMENT_PAIRS", "10000"))
TRIED = 0.15  # the share of a game's states whose pairs are tried: games are long, and options many
LEGAL_PER_STATE = 4  # legal actions tried per state (a random sample), besides the probes
PROBES_PER_STATE = 3
PLAYERS = range(MIN_PLAYERS, MAX_PLAYERS + 1)


def values_of(name: str) -> list[Any]:
    """The values tried for an option: its choices, both booleans, a few numbers."""
    option = next(option for option in OPTIONS if option.name == name)
    if name == "max_turns":
        return [1, 8, 40, 2000]
    if name == "max_cards_per_play":
        return [None, 1, 2, 3]
    return [True, False] if option.type == "bool" else list(option.choices or ())


def every_option(rng: random.Random) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with the defaults, every preset, each option at each value (at a random player count)."""
    return [
        *((players, {}) for players in PLAYERS),
        *((rng.choice(PLAYERS), {"preset": name}) for name in PRESETS),
        *((rng.choice(PLAYERS), {option.name: value}) for option in OPTIONS for value in values_of(option.name)),
    ]


def mixes(rng: random.Random) -> Iterator[tuple[int, dict[str, Any]]]:
    """Random mixes of options, forever."""
    while True:
        mix = {option.name: rng.choice(values_of(option.name)) for option in OPTIONS if rng.random() < 0.5}
        yield rng.choice(PLAYERS), mix


def probes(rng: random.Random, state: State) -> list[Any]:
    """Actions of every kind with random fields: mostly refused, some malformed, a few legal by chance."""
    seat = rng.choice([*range(state.players), state.turn, state.turn, -1, True])
    held = state.hands[state.turn] or state.face_up[state.turn]
    value = rng.choice([*range(14), *held, *held, None, -1, 14, True])  # often a value the seat to play holds
    count = rng.choice([1, 1, 2, 3, 4, 0, -1, True])
    made = [
        Play(seat, value, count),
        Play(state.turn, value, count),
        PickUp(seat),
        Give(seat, rng.choice([*range(state.players), None, state.players])),
        Accept(seat),
        Complete(seat, value),
        TakeFaceUp(seat, value),
        Swap(seat, value, rng.choice(range(14))),
        Ready(seat),
    ]
    return rng.sample(made, PROBES_PER_STATE)


def result(step: Any, state: State, action: Any) -> Any:
    """What ``step`` makes of the pair: the new state, or the class and code of its error."""
    try:
        return step(state, action)
    except tg.GameError as error:
        return type(error), error.code


def play(rng: random.Random, players: int, options: dict[str, Any]) -> Iterator[tuple[State, Any]]:
    """(state, action) pairs along one random game, which moves on by a random legal action of a seat asked."""
    state = new(players, seed=rng.randrange(2**32), options=options)
    while state.outcome is None:
        asked = state.asking_order()
        legal: list[Action] = [action for seat in asked for action in state.legal_actions(seat)]
        if rng.random() < TRIED:
            yield from ((state, action) for action in rng.sample(legal, min(LEGAL_PER_STATE, len(legal))))
            yield from ((state, action) for action in probes(rng, state))
        waited = [action for action in legal if action.seat in state.waiting_for] or legal
        state = state.apply(rng.choice(legal if rng.random() < 0.3 else waited))


def test_the_fast_path_gives_what_the_rules_give() -> None:
    rng = random.Random(2026)
    pairs = taken = 0
    fixed = every_option(rng)
    for index, (players, options) in enumerate(itertools.chain(fixed, mixes(rng))):
        if pairs >= PAIRS and index >= len(fixed):
            break
        for state, action in play(rng, players, options):
            expected = result(engine.step, state, action)
            assert result(fast_path.step, state, action) == expected, (players, options, action, state)
            taken += fast_path.try_step(state, action) is not None
            pairs += 1
    assert taken > pairs // 5, f"the fast path took only {taken} of {pairs} pairs: the test would prove little"


def test_every_kind_the_fast_path_takes_is_taken_somewhere() -> None:
    """Plays, pick-ups, gives and accepts (the kinds it takes) each go through it in ordinary games."""
    kinds: set[type] = set()
    rng = random.Random(7)
    for players, options in every_option(rng)[: len(PLAYERS)]:
        for state, action in play(rng, players, options):
            if fast_path.try_step(state, action) is not None:
                kinds.add(type(action))
    assert kinds == {Play, PickUp, Give, Accept}


def test_the_engines_table_declares_the_fields_as_fields_does() -> None:
    """``engine.Table`` holds every field of ``Fields`` by name, each with its type (and the player count): a field
    added to ``Fields`` and not to the table (or typed otherwise) fails here, not in a game."""
    from thegame_core.games.ninja.fields import Fields

    assert typing.get_type_hints(engine.Table) == {**typing.get_type_hints(Fields), "players": int}
    assert engine.Table.__slots__ == (*Fields._fields, "players")
