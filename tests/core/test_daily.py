"""The daily deal in the library: the same deal for everyone from the secret or the published seed, a deal nobody
can compute without the secret, the seat turning with the date, and results ordered as documented."""

from __future__ import annotations

import hashlib
import hmac
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import thegame_core as tg
from thegame_core.daily import DailyResult, bots_result, player_seat, result_of, seed_commitment

GAMES = [("the-game", 3), ("ninja", 3), ("bataille-corse", 4)]
DAYS = st.dates(date(2000, 1, 1), date(2100, 12, 31))
SECRETS = st.binary(min_size=16, max_size=64)


@settings(max_examples=30, deadline=None)
@given(secret=SECRETS, day=DAYS, pick=st.sampled_from(GAMES))
def test_the_secret_and_the_published_seed_deal_the_same_game(secret: bytes, day: date, pick: tuple[str, int]) -> None:
    game, players = pick
    served = tg.daily_deal(game, players, day, secret=secret)
    again = tg.daily_deal(game, players, day.isoformat(), served.seed)
    assert tg.dumps(again.state) == tg.dumps(served.state)
    assert (again.seat, again.day, again.seed) == (served.seat, served.day, served.seed)
    assert served.state.replay_record()["first_seat"] == 0 and served.state.version == 0


def test_the_seed_is_the_documented_hmac() -> None:
    secret = b"k" * 32
    expected = hmac.new(secret, b"daily/v1/ninja/3/2026-12-01", hashlib.sha256).digest()[:8]
    assert tg.daily_seed(secret, "ninja", 3, "2026-12-01") == int.from_bytes(expected, "big") >> 1
    assert seed_commitment(12) == hashlib.sha256(b"12").hexdigest()


@settings(max_examples=50, deadline=None)
@given(secret=SECRETS, other=SECRETS, day=DAYS)
def test_another_secret_another_deal(secret: bytes, other: bytes, day: date) -> None:
    """Without the server's secret, the seed cannot be worked out from the date (a plain hash could)."""
    if secret != other:
        assert tg.daily_seed(secret, "the-game", 2, day) != tg.daily_seed(other, "the-game", 2, day)


@settings(max_examples=50, deadline=None)
@given(secret=SECRETS, day=DAYS)
def test_each_day_each_game_and_each_player_count_has_its_own_deal(secret: bytes, day: date) -> None:
    seeds = {
        tg.daily_seed(secret, "the-game", 2, day),
        tg.daily_seed(secret, "the-game", 3, day),
        tg.daily_seed(secret, "ninja", 2, day),
        tg.daily_seed(secret, "the-game", 2, day + timedelta(days=1)),
    }
    assert len(seeds) == 4


@given(day=DAYS, players=st.integers(2, 6))
def test_the_player_s_seat_turns_one_seat_a_day(day: date, players: int) -> None:
    today, tomorrow = player_seat(players, day), player_seat(players, day + timedelta(days=1))
    assert 0 <= today < players and tomorrow == (today + 1) % players


@pytest.mark.parametrize("text", ["2026-13-01", "20261201", "2026-1-01", "", "tomorrow", " 2026-12-01"])
def test_a_day_is_yyyy_mm_dd(text: str) -> None:
    with pytest.raises(tg.InvalidSetup):
        tg.daily_deal("the-game", 2, text, 1)


def test_seed_or_secret_exactly_one() -> None:
    with pytest.raises(tg.InvalidSetup):
        tg.daily_deal("the-game", 2, "2026-12-01")
    with pytest.raises(tg.InvalidSetup):
        tg.daily_deal("the-game", 2, "2026-12-01", 1, secret=b"x")


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_bots_yardstick_is_reproducible_and_is_the_player_seat_s_result(game: str, players: int) -> None:
    deal = tg.daily_deal(game, players, "2026-12-01", 77)
    result = bots_result(deal)
    assert result == bots_result(tg.daily_deal(game, players, "2026-12-01", 77))
    if game == "the-game":
        assert result.place is None and 0 <= result.cards_left <= 98
    else:
        assert result.place is not None and 1 <= result.place <= players


def test_results_order_by_place_then_cards_then_turns() -> None:
    ordered = [DailyResult(0, 50, 1), DailyResult(3, 20, 1), DailyResult(0, 10, 2), DailyResult(1, 5, 3)]
    assert sorted(reversed(ordered), key=lambda result: result.key) == ordered
    assert sorted([DailyResult(4, 30), DailyResult(0, 60), DailyResult(4, 29)], key=lambda r: r.key) == [
        DailyResult(0, 60),
        DailyResult(4, 29),
        DailyResult(4, 30),
    ]


def test_a_running_game_has_no_result() -> None:
    with pytest.raises(tg.InvalidSetup):
        result_of(tg.new_game("ninja", 3, seed=1), 0)
