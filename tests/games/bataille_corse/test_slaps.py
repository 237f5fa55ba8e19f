"""C4, C6, C7, C8: every combination, valid, false and stale slaps, penalties in both places, OUT seats."""

from __future__ import annotations

import itertools

import pytest

import thegame_core as tg
from thegame_core.games.bataille_corse import GAME, Slap, combinations, slappable
from thegame_core.games.bataille_corse.options import COMBINATIONS, resolve_options

from .helpers import cards, flip, last_result, packet, position, slap

DEFAULT = resolve_options(2)
JOKERS = resolve_options(2, {"jokers": True})


@pytest.mark.parametrize(
    ("pile", "expected"),
    [
        ("7H 7D", ["double"]),
        ("RJ BJ", ["double"]),
        ("7H 2C 7D", ["sandwich"]),
        ("7H 7C 7D", ["double"]),  # the same middle card is no sandwich
        ("KS RJ KD", ["sandwich"]),  # a joker may be the middle card
        ("RJ 5S BJ", []),  # never c1 and c3 of a sandwich
        ("4C 5H", ["suite"]),
        ("AS 2S", ["suite"]),
        ("QS KH", ["suite"]),
        ("KS AH", []),  # no wrap by default
        ("10S JH", ["suite"]),
        ("3C 7D", ["sum10"]),
        ("4S AD 5C", ["sum10"]),
        ("AS 5S 3C AH", ["sum10"]),
        ("KS 9H AD", ["sum10"]),  # two cards suffice; the king under them is not counted
        ("10S 9D 3C", []),
        ("2S 3D 4C", ["suite"]),  # 2+3+4 = 9: no sum
        ("2H 5S", ["product10"]),
        ("10H AS", ["product10"]),
        ("6H 9S", ["poisson"]),
        ("9C 6D", ["poisson"]),
        ("4H 6D", ["sum10"]),
        ("5H 5D", ["double", "sum10"]),
        ("RJ 9S", []),
        ("9S RJ AS", []),  # a joker breaks a sum
        ("7D", []),
        ("", []),
    ],
)
def test_each_combination(pile: str, expected: list[str]) -> None:
    assert combinations(cards(pile), JOKERS) == expected
    assert slappable(cards(pile), JOKERS) == bool(expected)


def test_slappable_agrees_with_the_predicates_on_every_short_pile_under_every_switch() -> None:
    """``slappable`` (a pair table, then the sandwich and the sums) says what ``combinations`` (each predicate as
    written) says, on every 2- and 3-card pile of ranks, jokers included, for all 64 combination switches, with and
    without the K-A suite."""
    ranks = [*(rank << 2 for rank in range(13)), 52]  # one card per rank, a joker last
    piles = [*itertools.product(ranks, repeat=2), *itertools.product(ranks, repeat=3)]
    for switches in itertools.product((False, True), repeat=len(COMBINATIONS) + 1):
        enabled = dict(zip(COMBINATIONS, switches[1:], strict=True))
        options = resolve_options(2, {"jokers": True, "wrap_K_A": switches[0], **enabled})
        for pile in piles:
            assert slappable(pile, options) == bool(combinations(pile, options)), (pile, switches)


def test_wrap_and_each_combination_can_be_turned_off() -> None:
    assert combinations(cards("KS AH"), resolve_options(2, {"wrap_K_A": True})) == ["suite"]
    for name, pile in [("double", "7H 7D"), ("sandwich", "7H 2C 7D"), ("suite", "4C 5H"), ("sum10", "3C 7D"),
                       ("product10", "2H 5S"), ("poisson", "6H 9S")]:  # fmt: skip
        options = resolve_options(2, {name: False})
        assert not slappable(cards(pile), options), name
        assert slappable(cards(pile), DEFAULT)


def test_a_valid_slap_collects_penalty_then_pile_and_the_slapper_flips_next() -> None:
    state = position(3, {0: "2S 3S", 1: "4H 8H 9H JC", 2: "5D"}, "7H 7D", current=2)
    state = state._replace(penalty=cards("QC KC"))
    after = slap(state, 1)
    assert last_result(after) == "valid"
    assert packet(after, 1) == ["4H", "8H", "9H", "JC", "QC", "KC", "7H", "7D"]
    assert after.pile == () and after.penalty == () and after.current_seat == 1
    assert after.pile_version == state.pile_version + 1


def test_a_valid_slap_during_a_challenge_cancels_it() -> None:
    state = position(2, {0: "2S 3S", 1: "4H 8H"}, "QS 9C 9D", current=1, challenge=(0, 1, 1))
    after = slap(state, 1)
    assert after.challenge is None and after.current_seat == 1 and len(after.packets[1]) == 5


def test_a_false_slap_pays_three_cards_face_down_under_the_pile() -> None:
    state = position(2, {0: "2S 3S 4S 5S", 1: "8H"}, "7H 9D", current=1)
    after = slap(state, 0)
    assert last_result(after) == "false" and packet(after, 0) == ["5S"]
    assert after.penalty == cards("2S 3S 4S") and after.pile == state.pile
    assert after.pile_version == state.pile_version  # the face-up pile did not change
    view = after.public_view()
    assert view["penalty_cards"] == 3 and view["pile"] == ["7H", "9D"]
    collected = slap(flip(after), 1)  # seat 1 flips 8H on 9D, a suite, and slaps it
    assert packet(collected, 1) == ["2S", "3S", "4S", "7H", "9D", "8H"]


def test_penalty_cards_never_count_in_combinations() -> None:
    state = position(2, {0: "4S 6S 2S 5S", 1: "8H 7C"}, "3H", current=1)
    after = slap(state, 0)  # 4S 6S 2S go under the 3H: 3 on 6 would be a sum of 9, 3 on 4 a suite, if they counted
    assert last_result(after) == "false" and after.penalty == cards("4S 6S 2S")
    assert last_result(slap(after, 1)) == "false"


def test_with_fewer_cards_the_seat_pays_all_and_goes_out() -> None:
    state = position(3, {0: "2S 3S", 1: "8H 9H", 2: "JD"}, "7H 9D", current=1)
    after = slap(state, 0)
    assert after.penalty == cards("2S 3S") and after.seat_states()[0] == "out" and after.errors[0] == 0


def test_penalty_on_top_face_up_counts_in_combinations_adds_a_version_and_opens_no_challenge() -> None:
    options = {"penalty_place": "top_face_up"}
    state = position(2, {0: "KS 3S 5S 8C", 1: "8H"}, "7H 9D", current=1, options=options)
    after = slap(state, 0)  # KS 3S 5S go on top, face up: the king opens no challenge
    assert after.pile == cards("7H 9D KS 3S 5S") and after.penalty == ()
    assert after.pile_version == state.pile_version + 1 and after.challenge is None and after.current_seat == 1
    again = position(2, {0: "3C 7S AS", 1: "8H"}, "2D", current=1, options=options)
    paid = slap(again, 0)  # A on 7 on 3: 1 + 7 + 3 = 11, no sum from the top
    assert not slappable(paid.pile, paid.options)
    double = slap(position(2, {0: "4C 4S AS", 1: "8H"}, "2D", current=1, options={**options, "penalty_count": 2}), 0)
    assert double.pile == cards("2D 4C 4S") and slappable(double.pile, double.options)
    assert last_result(slap(double, 1)) == "valid"


def test_a_stale_slap_changes_nothing_but_the_version_and_the_log() -> None:
    state = position(2, {0: "2S 3S 4S", 1: "8H 9C"}, "7H 7D", current=0)
    seen = state.pile_version
    won = slap(state, 1)
    late = won.apply(Slap(0, seen))
    assert last_result(late) == "stale" and late.version == won.version + 1
    assert late.public_view() | {"version": 0} == won.public_view() | {"version": 0}
    assert late.public_log()[-1] == {"type": "slap", "seat": 0, "pile_version": seen, "result": "stale"}


def test_refusals_in_the_contract_order() -> None:
    state = position(2, {0: "2S 3S", 1: "8H"}, "7H", current=0)
    with pytest.raises(tg.InvalidAction):
        state.apply(Slap(1, state.pile_version + 1))  # a version never shown
    with pytest.raises(tg.NotYourTurn):
        state.apply(GAME.parse_action({"type": "flip", "seat": 1}))
    empty = slap(position(2, {0: "2S 3S", 1: "8H"}, "7H 7S", current=0), 0)
    with pytest.raises(tg.IllegalAction) as refused:
        slap(empty, 1)
    assert refused.value.code == "empty_pile"
    assert last_result(empty.apply(Slap(1, 0))) == "stale"  # an old version is a no-op before the empty pile


def test_out_seats_record_errors_one_per_pile_and_are_excluded_at_three() -> None:
    state = position(3, {0: "2S 3S 4S 5S 6S", 1: "8H 9H 10H JH QC"}, "7H 9D", current=0, errors=[0, 0, 2])
    assert state.seat_states()[2] == "out" and state.legal_actions(2) == [Slap(2, 2)]
    after = slap(state, 2)
    assert after.errors[2] == 3 and after.seat_states()[2] == "excluded" and after.legal_actions(2) == []
    assert after.packets == state.packets and after.penalty == ()  # an OUT seat pays no card
    once = slap(position(3, {0: "2S 3S", 1: "8H"}, "7H 9D", current=0), 2)
    assert once.errors[2] == 1 and once.legal_actions(2) == []  # one error per pile
    with pytest.raises(tg.IllegalAction) as refused:
        slap(once, 2)
    assert refused.value.code == "cannot_slap"
    later = flip(flip(slap(flip(once), 0)))  # the pile is collected: the flag resets
    assert Slap(2, later.pile_version) in later.legal_actions(2)


def test_an_out_seat_slapping_validly_comes_back_in() -> None:
    state = position(3, {0: "2S 3S", 1: "8H 10C"}, "7H 7D", current=0)
    after = slap(state, 2)
    assert after.seat_states()[2] == "in" and packet(after, 2) == ["7H", "7D"] and after.current_seat == 2


def test_an_in_seat_without_cards_pays_nothing_for_a_false_slap() -> None:
    state = position(2, {1: "8H 10C"}, "QS 9D", current=1, challenge=(0, 1, 1))
    after = slap(state, 0)
    assert last_result(after) == "false" and after.errors == (0, 0) and after.penalty == ()
