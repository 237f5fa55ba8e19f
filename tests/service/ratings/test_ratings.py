"""Ratings: the shown scale and provisional flag, a game rated from its ranking, stored once per game with its
history, and the leaderboards (order, the 30-day window, a player's rank), on fakeredis and on real Redis."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.ratings import Leaderboards, Rating, Ratings, rate, rated
from service.ratings.board import WINDOW_MS
from service.ratings.scale import NEW, places

TTL = 300
DAY_MS = 86_400_000
NOW_MS = 1_800_000_000_000


@pytest.fixture
def boards(redis_client: redis.Redis) -> Iterator[Leaderboards]:
    """Boards under a prefix of this test's own, deleted after it (they never expire)."""
    boards = Leaderboards(redis_client, f"test-{secrets.token_hex(6)}:")
    yield boards
    redis_client.delete(*boards.keys("ninja"), *boards.keys("bataille-corse"))


@pytest.fixture
def ratings(redis_client: redis.Redis, boards: Leaderboards) -> Ratings:
    return Ratings(redis_client, boards, TTL)


@pytest.fixture
def game_id() -> Callable[[str], str]:
    """Game ids of this test alone (a rated game's decision is kept by its id)."""
    run = secrets.token_hex(6)
    return lambda name: f"{name}-{run}"


def players(count: int) -> list[str]:
    return [secrets.token_urlsafe(12) for _ in range(count)]


def test_a_new_player_shows_1500_provisional() -> None:
    assert Rating().shown == NEW
    assert Rating().provisional
    assert not Rating(25.0, 5.0).provisional


def test_only_competitive_games_are_rated() -> None:
    assert rated("ninja") and rated("bataille-corse")
    assert not rated("the-game") and not rated("chess")


def test_ratings_move_the_way_the_game_went() -> None:
    after = rate([2, 0, 1], [Rating(), Rating(), Rating()])  # seat 2 first, seat 1 last
    assert after[2].mu > after[0].mu > Rating().mu > after[1].mu
    assert all(rating.sigma < Rating().sigma for rating in after)
    assert places([2, 0, 1], 3) == [2, 3, 1]


def test_a_ranking_must_rank_every_seat_once() -> None:
    with pytest.raises(ValueError, match="ranks each"):
        rate([0, 0], [Rating(), Rating()])


def test_a_player_becomes_established_after_enough_games() -> None:
    ratings, games = [Rating(), Rating()], 0
    while ratings[0].provisional:
        ratings = rate([games % 2, 1 - games % 2], ratings)  # they win in turn
        games += 1
    assert 10 < games < 100
    assert ratings[0].shown > NEW  # as the model learns who they are, the ordinal rises


def test_a_game_is_rated_from_its_ranking_and_stored_with_its_history(
    ratings: Ratings, game_id: Callable[[str], str]
) -> None:
    ann, bob, cat = players(3)
    seats = ratings.rate_game("ninja", game_id("g1"), [1, 2, 0], [ann, bob, cat], NOW_MS)
    assert [seat.place for seat in seats] == [3, 1, 2]
    assert seats[1].after.shown > NEW > seats[0].after.shown
    assert all(seat.before == Rating() for seat in seats)
    assert ratings.current(bob, "ninja").rating == seats[1].after
    assert ratings.current(bob, "ninja").games == 1
    assert ratings.current(bob, "bataille-corse").games == 0  # one rating per game
    [entry] = ratings.history(ann, "ninja")
    assert (entry["game_id"], entry["place"], entry["seats"], entry["n"]) == (game_id("g1"), 3, 3, 1)
    assert entry["before"]["rating"] == NEW and entry["after"]["rating"] == seats[0].after.shown

    second = ratings.rate_game("ninja", game_id("g2"), [0, 1], [ann, bob], NOW_MS + 1)
    assert second[0].before == seats[0].after  # the next game starts from the last one's rating
    assert [entry["game_id"] for entry in ratings.history(ann, "ninja")] == [game_id("g1"), game_id("g2")]


def test_a_game_rated_twice_changes_nothing_the_second_time(
    ratings: Ratings, redis_client: redis.Redis, game_id: Callable[[str], str]
) -> None:
    ann, bob = players(2)
    first = ratings.rate_game("ninja", game_id("g1"), [0, 1], [ann, bob], NOW_MS)
    stored = {player: redis_client.hgetall(f"tg:{{p:{player}}}:rating:ninja") for player in (ann, bob)}
    again = ratings.rate_game("ninja", game_id("g1"), [1, 0], [ann, bob], NOW_MS)  # even told another ranking
    assert again == first
    assert {player: redis_client.hgetall(f"tg:{{p:{player}}}:rating:ninja") for player in (ann, bob)} == stored
    assert len(ratings.history(ann, "ninja")) == 1


def test_a_rating_stopped_halfway_is_completed_by_the_next_try(ratings: Ratings, game_id: Callable[[str], str]) -> None:
    ann, bob = players(2)
    seats = ratings._decided("ninja", game_id("g1"), [0, 1], [ann, bob])  # decided, then the process died
    ratings._apply("ninja", game_id("g1"), seats[0], 2, NOW_MS)
    assert ratings.rate_game("ninja", game_id("g1"), [0, 1], [ann, bob], NOW_MS) == seats
    assert ratings.current(bob, "ninja").rating == seats[1].after
    assert ratings.current(ann, "ninja").games == 1


def test_a_game_rated_after_a_later_one_keeps_the_later_end(ratings: Ratings, game_id: Callable[[str], str]) -> None:
    ann, bob = players(2)
    ratings.rate_game("ninja", game_id("later"), [0, 1], [ann, bob], NOW_MS)
    ratings.rate_game("ninja", game_id("earlier"), [0, 1], [ann, bob], NOW_MS - 40 * DAY_MS)
    assert ratings.current(ann, "ninja").ended_ms == NOW_MS
    assert [entry["ended"] for entry in ratings.history(ann, "ninja")] == [NOW_MS, NOW_MS - 40 * DAY_MS]


def test_a_player_moved_since_the_decision_gets_the_game_s_change(
    ratings: Ratings, game_id: Callable[[str], str]
) -> None:
    ann, bob, cat = players(3)
    seats = ratings._decided("ninja", game_id("g1"), [0, 1], [ann, bob])
    ratings.rate_game("ninja", game_id("g2"), [1, 0], [ann, cat], NOW_MS)  # ann's other game is rated in between
    between = ratings.current(ann, "ninja").rating
    ratings.rate_game("ninja", game_id("g1"), [0, 1], [ann, bob], NOW_MS)
    now = ratings.current(ann, "ninja")
    assert now.games == 2
    assert now.rating.mu == pytest.approx(between.mu + seats[0].after.mu - seats[0].before.mu)
    assert now.rating.sigma < between.sigma


def test_one_player_in_two_seats_is_refused(ratings: Ratings, game_id: Callable[[str], str]) -> None:
    [ann] = players(1)
    with pytest.raises(ValueError, match="each player once"):
        ratings.rate_game("ninja", game_id("g1"), [0, 1], [ann, ann], NOW_MS)


def established(ratings: Ratings, player: str, rivals: list[str], wins: int, losses: int, ended_ms: int) -> None:
    """``player`` plays ``wins + losses`` games against ``rivals`` in turn, until their rating is established."""
    for number in range(wins + losses):
        rival = rivals[number % len(rivals)]
        ranking = [0, 1] if number < wins else [1, 0]
        ratings.rate_game("ninja", secrets.token_hex(6), ranking, [player, rival], ended_ms)
    assert not ratings.current(player, "ninja").rating.provisional


def test_the_leaderboard_lists_established_players_best_first(
    ratings: Ratings, boards: Leaderboards, game_id: Callable[[str], str]
) -> None:
    strong, middle, weak, newcomer, *rivals = players(8)
    established(ratings, strong, rivals, 40, 10, NOW_MS)
    established(ratings, middle, rivals, 25, 25, NOW_MS)
    established(ratings, weak, rivals, 10, 40, NOW_MS)
    ratings.rate_game("ninja", game_id("new"), [0, 1], [newcomer, rivals[0]], NOW_MS)
    count, entries = boards.top("ninja", NOW_MS)
    listed = [entry.player for entry in entries]
    assert listed.index(strong) < listed.index(middle) < listed.index(weak)
    assert newcomer not in listed  # provisional
    assert [entry.rank for entry in entries] == list(range(1, len(entries) + 1))
    assert [entry.points for entry in entries] == sorted((entry.points for entry in entries), reverse=True)
    assert count == len(entries)
    assert boards.standing("ninja", weak, NOW_MS).rank == listed.index(weak) + 1
    assert boards.standing("ninja", newcomer, NOW_MS).rank is None
    assert boards.top("bataille-corse", NOW_MS) == (0, [])
    assert len(boards.top("ninja", NOW_MS, limit=2)[1]) == 2


def test_the_leaderboard_keeps_players_rated_in_the_last_30_days(
    ratings: Ratings, boards: Leaderboards, game_id: Callable[[str], str]
) -> None:
    old, recent, *rivals = players(4)
    established(ratings, old, rivals, 30, 20, NOW_MS - 31 * DAY_MS)
    established(ratings, recent, rivals, 20, 30, NOW_MS - 29 * DAY_MS)
    listed = [entry.player for entry in boards.top("ninja", NOW_MS)[1]]
    assert recent in listed and old not in listed
    assert boards.standing("ninja", old, NOW_MS).rank is None
    assert boards.standing("ninja", recent, NOW_MS).rank == listed.index(recent) + 1
    assert boards.standing("ninja", recent, NOW_MS + 2 * DAY_MS).rank is None  # 31 days on: gone too
    ratings.rate_game("ninja", game_id("back"), [0, 1], [old, recent], NOW_MS)  # a rated game brings a player back
    assert old in [entry.player for entry in boards.top("ninja", NOW_MS)[1]]


def test_a_late_update_never_replaces_a_newer_one(boards: Leaderboards) -> None:
    assert boards.update("ninja", "ann", 30, 2000.0, NOW_MS)
    assert not boards.update("ninja", "ann", 29, 1900.0, NOW_MS)
    assert boards.standing("ninja", "ann", NOW_MS).points == 2000.0
    assert boards.update("ninja", "ann", 31, None, NOW_MS)  # provisional again: off the board
    assert boards.standing("ninja", "ann", NOW_MS).rank is None


def test_stale_players_are_skipped_even_beyond_one_prune(boards: Leaderboards, monkeypatch: pytest.MonkeyPatch) -> None:
    for number in range(5):
        boards.update("ninja", f"old{number}", 20, 3000.0 + number, NOW_MS - WINDOW_MS - DAY_MS)
    boards.update("ninja", "fresh", 20, 1800.0, NOW_MS)
    monkeypatch.setattr("service.ratings.board.PRUNE", 1)  # fewer dropped per call than are stale
    assert [entry.player for entry in boards.top("ninja", NOW_MS)[1]] == ["fresh"]
    assert boards.standing("ninja", "fresh", NOW_MS).rank is not None


def test_racing_raters_rate_a_game_once_and_lose_no_game(
    ratings: Ratings, boards: Leaderboards, connect: Callable[[], redis.Redis], game_id: Callable[[str], str]
) -> None:
    """Processes rating at once (threads with clients of their own): one game by all of them, and several games of
    one player each by one of them."""
    ann, *rivals = players(8)
    racers = [Ratings(connect(), Leaderboards(connect(), boards.prefix), TTL) for _ in range(6)]
    with ThreadPoolExecutor(6) as pool:
        same = list(
            pool.map(lambda racer: racer.rate_game("ninja", game_id("g"), [0, 1], [ann, rivals[0]], NOW_MS), racers)
        )
    assert all(seats == same[0] for seats in same)
    assert ratings.current(ann, "ninja").games == 1
    with ThreadPoolExecutor(6) as pool:
        others = [
            pool.submit(racer.rate_game, "ninja", game_id(f"g{number}"), [1, 0], [ann, rival], NOW_MS)
            for number, (racer, rival) in enumerate(zip(racers, rivals[1:], strict=True))
        ]
        [future.result() for future in others]
    assert ratings.current(ann, "ninja").games == 7
    assert [entry["n"] for entry in ratings.history(ann, "ninja")] == list(range(1, 8))
    lost = ratings.current(ann, "ninja").rating.mu
    assert lost < same[0][0].after.mu - 5  # six losses all counted
    assert boards.standing("ninja", ann, NOW_MS).rank is None  # still provisional
    assert all(ratings.current(rival, "ninja").games == 1 for rival in rivals[1:])


TABLES = st.integers(2, 6).flatmap(lambda seats: st.permutations(range(seats)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ranking=TABLES, tries=st.integers(1, 3))
def test_a_game_rated_any_number_of_times_moves_each_player_once(
    ratings: Ratings, redis_client: redis.Redis, ranking: list[int], tries: int
) -> None:
    """Whatever the table: one decision however often the game is rated (a retry, another process), the winner up
    and the last down, and each player's game counted once, their rating the decision's."""
    game_id, players = secrets.token_hex(8), [secrets.token_hex(8) for _ in ranking]
    decided = [ratings.rate_game("ninja", game_id, ranking, players, 1_800_000_000_000) for _ in range(tries)]
    assert all(seats == decided[0] for seats in decided) and ratings.decision(game_id) == decided[0]
    first, last = decided[0][ranking[0]], decided[0][ranking[-1]]
    assert first.after.points > first.before.points and last.after.points < last.before.points
    for seat, player in enumerate(players):
        assert ratings.current(player, "ninja").games == 1 and len(ratings.history(player, "ninja")) == 1
        assert ratings.current(player, "ninja").rating == decided[0][seat].after
    redis_client.delete(f"tg:{{{game_id}}}:rated")
