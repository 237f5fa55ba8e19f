"""Hypothesis properties over random games: conservation, immutability, legality, serialization, secrecy.

Games are driven from hypothesis-chosen seeds, player counts 1..5, presets (or individual options), stuck policies
and first seats;
each step is a random legal action or, in a share of the steps drawn per game, the greedy bot's next action (so
games also reach the empty draw pile and the end game), with signals from random seats mixed in.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import thegame_core as tg
from thegame_core.bots import create_bot
from thegame_core.games.the_game.rules import can_place

from .helpers import (
    PRESET_NAMES,
    STUCK_POLICIES,
    check_invariants,
    check_rules,
    check_transition,
    check_views,
    new,
    sequence_exists,
    turn_actions,
)

PROPERTY_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GREEDY = create_bot("greedy")
MAX_STEPS = 200


@st.composite
def individual_options(draw: st.DrawFn) -> dict[str, Any]:
    """Options set one by one within the spec's ranges (hand_size 1..8, min_per_turn 1..hand_size)."""
    hand_size = draw(st.integers(1, 8))
    min_per_turn = draw(st.integers(1, hand_size))
    return {"hand_size": hand_size, "min_per_turn": min_per_turn, "min_after_empty": draw(st.integers(1, min_per_turn))}


def start(data: st.DataObject) -> tg.State:
    """A new game: 1..5 players, a preset (or, one time in four, individual options), a stuck policy, a seed and
    a first seat, all chosen by hypothesis."""
    players = data.draw(st.integers(1, 5), label="players")
    presets = st.sampled_from(PRESET_NAMES).map(lambda name: {"preset": name})
    options = data.draw(st.one_of(presets, presets, presets, individual_options()), label="options")
    options["stuck_policy"] = data.draw(st.sampled_from(STUCK_POLICIES), label="stuck_policy")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    first_seat = data.draw(st.integers(0, players - 1), label="first_seat")
    return new(players, seed=seed, options=options, first_seat=first_seat)


def choose(rng: random.Random, state: tg.State, greedy_share: float) -> Any:
    """A random next action: a signal (5%), else the greedy bot's next action (``greedy_share`` of the time; the
    more, the longer the game) or any legal action."""
    roll = rng.random()
    if roll > 0.05:
        if rng.random() < greedy_share:
            return GREEDY.act(state.observe(state.current_seat))[0]
        return rng.choice(turn_actions(state))
    seat = rng.randrange(state.players)
    return rng.choice([action for action in state.legal_actions(seat) if isinstance(action, tg.Signal)])


def walk(data: st.DataObject) -> Iterator[tuple[tg.State, Any, tg.State]]:
    """(state, action, next state) for each step of one random game, to its end or MAX_STEPS."""
    rng = data.draw(st.randoms(use_true_random=True), label="choices")
    greedy_share = data.draw(st.sampled_from([0.0, 0.5, 0.95, 1.0]), label="greedy_share")
    state = start(data)
    for _ in range(MAX_STEPS):
        if state.status != "playing":
            return
        action = choose(rng, state, greedy_share)
        after = state.apply(action)
        yield state, action, after
        state = after


def deck_of(state: tg.State) -> list[int]:
    return list(state.replay_record()["deck"])


@PROPERTY_SETTINGS
@given(st.data())
def test_cards_are_conserved_and_the_score_counts_them(data: st.DataObject) -> None:
    """At every step the 98 cards are in the hands, the draw pile or placed (once each); the score is cards in
    hands + draw pile; won iff the score is 0; a finished game offers no action."""
    deck = None
    for before, _, after in walk(data):
        deck = deck or deck_of(before)
        check_invariants(before, deck)
        check_invariants(after, deck)


@PROPERTY_SETTINGS
@given(st.data())
def test_states_and_transitions_follow_the_spec(data: st.DataObject) -> None:
    """Each state agrees with the rules restated in the helpers (legal plays, minimum, loss check, incl.
    self-enabled sequences) and each step does what the spec says (play, draw and pass, signal)."""
    deck = None
    for before, action, after in walk(data):
        deck = deck or deck_of(before)
        check_rules(before)
        check_transition(before, action, after, deck)
        check_rules(after)


@PROPERTY_SETTINGS
@given(st.data())
def test_version_increases_by_exactly_one_per_action(data: st.DataObject) -> None:
    """Every applied action, signals included, adds 1 to the version and one entry to the history."""
    for before, action, after in walk(data):
        assert after.version == before.version + 1
        assert after.history == (*before.history, action)


@PROPERTY_SETTINGS
@given(st.data())
def test_apply_never_mutates_its_input(data: st.DataObject) -> None:
    """apply returns a new state; the state it was called on is unchanged (same snapshot, still equal)."""
    for before, action, _ in walk(data):
        text = tg.dumps(before)
        copy = tg.loads(text)
        before.apply(action)
        for other in before.legal_actions()[:3]:
            before.apply(other)
        assert tg.dumps(before) == text
        assert before == copy


def illegal_candidates(rng: random.Random, state: tg.State) -> list[Any]:
    """Random plays from any seat, ends of turn from every seat: those not legal now must all be refused."""
    plays = [tg.Play(rng.randrange(state.players), rng.randint(2, 99), rng.choice(tg.PILES)) for _ in range(12)]
    own = [tg.Play(state.current_seat, card, pile) for card in state.hands[state.current_seat] for pile in tg.PILES]
    ends = [tg.EndTurn(seat) for seat in range(state.players)]
    legal = state.legal_actions()
    return [action for action in plays + own + ends if action not in legal]


@PROPERTY_SETTINGS
@given(st.data())
def test_every_legal_action_applies_and_every_other_is_refused(data: st.DataObject) -> None:
    """Every listed action applies (one step, same seat's turn or the next); every other play or end of turn
    raises GameError and leaves the state unchanged."""
    rng = data.draw(st.randoms(use_true_random=True), label="illegal")
    for before, _, _ in walk(data):
        for action in before.legal_actions():
            assert before.apply(action).version == before.version + 1
            assert action.seat == before.current_seat
        text = tg.dumps(before)
        for action in illegal_candidates(rng, before):
            try:
                before.apply(action)
            except tg.GameError as error:
                assert error.code in tg.ERROR_CODES
            else:
                raise AssertionError(f"{action} is not listed as legal but was applied")
            assert tg.dumps(before) == text


@PROPERTY_SETTINGS
@given(st.data())
def test_apply_all_equals_applying_one_by_one(data: st.DataObject) -> None:
    """apply_all(actions) is the same state as applying each action in turn."""
    steps = list(walk(data))
    if steps:
        first = steps[0][0]
        assert first.apply_all([action for _, action, _ in steps]) == steps[-1][2]


@PROPERTY_SETTINGS
@given(st.data())
def test_snapshot_round_trip(data: st.DataObject) -> None:
    """loads(dumps(s)) == s at every step."""
    for _, _, after in walk(data):
        assert tg.loads(tg.dumps(after)) == after


@PROPERTY_SETTINGS
@given(st.data())
def test_replay_round_trip(data: st.DataObject) -> None:
    """replay(replay_record()) == s, at the end of a game and midway."""
    steps = list(walk(data))
    for _, _, state in steps[len(steps) // 2 :: max(1, len(steps) // 2)]:
        assert tg.replay(state.replay_record()) == state


@PROPERTY_SETTINGS
@given(st.data())
def test_no_view_shows_another_hand_or_the_draw_pile(data: st.DataObject) -> None:
    """Spec "Information and talk": a seat view holds its own hand only; the public view no hand; no view shows
    a card of another hand or of the draw pile, whose size only is given (an int)."""
    deck = None
    keys: list[set[str]] = []
    for before, _, after in walk(data):
        deck = deck or deck_of(before)
        check_views(after, deck)
        views = [after.public_view(), *(after.view(seat) for seat in range(after.players))]
        keys = keys or [set(view) for view in views]
        assert [set(view) for view in views] == keys, "a view has the same fields at every step"


@PROPERTY_SETTINGS
@given(
    hand=st.lists(st.integers(2, 99), max_size=8, unique=True).map(sorted),
    ascending=st.lists(st.integers(1, 99), min_size=2, max_size=2),
    descending=st.lists(st.integers(2, 100), min_size=2, max_size=2),
    need=st.integers(0, 9),
)
def test_loss_check_agrees_with_brute_force(
    hand: list[int], ascending: list[int], descending: list[int], need: int
) -> None:
    """The loss check alone (counting and bisecting, search only when short) agrees with the brute-force statement
    of spec "Lost" on any hand and piles, even asking for more plays than cards."""
    tops = (*ascending, *descending)
    assume(not set(hand) & set(tops))
    assert can_place(hand, tops, need) == sequence_exists(frozenset(hand), tops, need)
