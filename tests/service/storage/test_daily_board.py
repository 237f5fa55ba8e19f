"""Daily leaderboards in Redis (order, ranks, one result per token, expiry, one slot per deal) and the check that
keeps forged games off them: a result comes only from a replayed game on the day's deal, played as the rules say."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import date

import pytest
import redis
from hypothesis import given, settings
from hypothesis import strategies as st
from redis.cluster import key_slot

import thegame_core as tg
from service.daily import Daily, DailyBoard, DailySecret
from service.daily.board import Deal, Standing, score
from service.daily.creation import daily_record
from service.daily.results import Refused, ResultPoster, check
from service.records.game_record import GameRecord, Seat
from thegame_core.bots import create_bot
from thegame_core.daily import DailyResult, result_of

SECRET = b"board test secret"
DAY = date(2027, 1, 15)
NOON = 1_800_000_000.0  # 2027-01-15 08:00 UTC
TTL = 300


@pytest.fixture
def board(redis_client: redis.Redis) -> DailyBoard:
    return DailyBoard(redis_client, f"test-{secrets.token_hex(6)}:", TTL)


def deal(game: str = "the-game", players: int = 2) -> Deal:
    return Deal(game, players, DAY)


def test_results_come_best_first_with_shared_ranks_and_pages(board: DailyBoard) -> None:
    results = {  # digest -> (finished ms, result)
        "d": (4, DailyResult(5, 40)),
        "a": (1, DailyResult(0, 60)),
        "c": (3, DailyResult(5, 30)),
        "b": (2, DailyResult(5, 30)),  # ties with c, finished earlier
        "e": (5, DailyResult(90, 3)),
    }
    for digest, (finished, result) in results.items():
        assert board.post(deal(), digest, finished, result, {"name": digest, "game_id": "g", "team": []})
    page = board.page(deal(), 0, 10)
    assert page.count == 5
    assert [(rank, entry["name"]) for rank, entry in page.entries] == [(1, "a"), (2, "b"), (2, "c"), (4, "d"), (5, "e")]
    assert [(rank, entry["name"]) for rank, entry in board.page(deal(), 2, 2).entries] == [(2, "c"), (4, "d")]
    assert (board.rank(deal(), "c").count, board.rank(deal(), "c").rank) == (5, 2)
    assert board.rank(deal(), "nobody") == Standing(5)
    assert [board.rank(deal(), name).percentile for name in "abcde"] == [80, 40, 40, 20, 0]  # b and c tie
    assert board.rank(deal(), "nobody").percentile is None


def test_one_result_per_token_and_deal(board: DailyBoard) -> None:
    entry = {"name": "ann", "game_id": "g", "team": []}
    assert board.post(deal(), "t", 1, DailyResult(10, 30), entry)
    assert not board.post(deal(), "t", 2, DailyResult(0, 10), entry)  # a better one later changes nothing
    assert board.post(deal("the-game", 3), "t", 3, DailyResult(0, 10), entry)  # another deal: its own board
    assert board.page(deal(), 0, 10).count == 1
    assert board.rank(deal(), "t").entry == {
        "member": "0000000000001:t",
        "name": "ann",
        "game_id": "g",
        "team": [],
        "result": DailyResult(10, 30).to_dict(),
    }
    assert board.rank(deal("the-game", 3), "t").percentile == 0  # alone on its deal


@settings(max_examples=200, deadline=None)
@given(
    first=st.tuples(st.none() | st.integers(1, 10), st.integers(0, 999), st.integers(0, 999_999)),
    second=st.tuples(st.none() | st.integers(1, 10), st.integers(0, 999), st.integers(0, 999_999)),
)
def test_the_packed_score_keeps_the_order_of_results(
    first: tuple[int | None, int, int], second: tuple[int | None, int, int]
) -> None:
    a, b = DailyResult(first[1], first[2], first[0]), DailyResult(second[1], second[2], second[0])
    if (a.place is None) == (b.place is None):
        assert (score(a) < score(b)) == (a.key < b.key) and score(a) < 2**53


def test_a_deal_s_keys_share_a_slot_and_expire(board: DailyBoard) -> None:
    board.post(deal("ninja", 3), "t", 1, DailyResult(0, 10, 1), {"name": "ann", "game_id": "g", "team": []})
    board.store_bots(deal("ninja", 3), DailyResult(0, 12, 1))
    keys = [deal("ninja", 3).key(board.prefix, part) for part in ("results", "entries", "bots", "bots-lock")]
    assert len({key_slot(key.encode()) for key in keys}) == 1
    assert all(0 < board.client.ttl(key) <= TTL for key in keys[:3])


# The check: what a forged game cannot pass ----------------------------------------------------------------------
def finished_daily(game: str = "the-game", players: int = 2, bots: list[str] | None = None) -> GameRecord:
    """A daily game created at ``NOON`` and played to its end by greedy play at every seat."""
    body = {"game": game, "players": players, "name": "ann", **({"bots": bots} if bots else {})}
    record, _ = daily_record(body, DAY, "host", "seat", NOON, SECRET, 0)
    assert record.state is not None
    state = record.state
    players_bots = [create_bot("greedy", game=game, seed=seat) for seat in range(players)]
    while state.status == "playing":
        seat = next(seat for seat in state.asking_order() if players_bots[seat].act(state.observe(seat)))
        state = state.apply_all(players_bots[seat].act(state.observe(seat)))
    return record.with_state(state)


def test_a_genuine_game_passes_the_check() -> None:
    record = finished_daily()
    checked = check(record, SECRET)
    deal_of_day = tg.daily_deal("the-game", 2, DAY, secret=SECRET)
    assert checked.deal == Deal("the-game", 2, DAY) and checked.name == "ann" and checked.team == ("best",)
    assert checked.result == result_of(record.state, deal_of_day.seat)  # type: ignore[arg-type]


FORGERIES = {
    "another seed": lambda record: replace(record, seed=record.seed + 1),
    "another secret": lambda record: record,  # checked below under another secret
    "created the next day": lambda record: replace(record, created_at=record.created_at + 24 * 3600 * 1000),
    "a second person": lambda record: replace(record, seats=tuple(Seat("bob", "x") for _ in record.seats)),
    "a seat changed hands": lambda record: record.with_seat(0, record.seats[0]),
    "not over": lambda record: record.with_state(record.new_state(0)),
    "not a daily game": lambda record: replace(record, daily=None),
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_a_forged_game_is_refused(forgery: str) -> None:
    forged = FORGERIES[forgery](finished_daily())
    with pytest.raises(Refused):
        check(forged, b"another secret" if forgery == "another secret" else SECRET)


def test_a_competitive_game_against_weaker_bots_is_refused() -> None:
    record = finished_daily("ninja", 3)
    weaker = tuple(seat if seat is None or seat.bot is None else replace(seat, bot="random") for seat in record.seats)
    with pytest.raises(Refused, match="best"):
        check(replace(record, seats=weaker), SECRET)


def test_a_forged_game_written_to_the_store_posts_nothing(board: DailyBoard, redis_client: redis.Redis) -> None:
    never = lambda *deal: pytest.fail(f"no yardstick is asked for here: {deal}")  # noqa: E731
    daily = Daily(board, DailySecret(redis_client, "unused", SECRET.decode()), never)
    poster = ResultPoster(daily, lambda: NOON)
    genuine = finished_daily()
    forged = replace(genuine, seed=genuine.seed + 1)
    poster.written("forged", forged.fields())
    assert board.page(deal(), 0, 10).count == 0
    poster.written("genuine", genuine.fields())
    poster.written("genuine", genuine.fields())  # written again: still one result
    assert board.page(deal(), 0, 10).count == 1
