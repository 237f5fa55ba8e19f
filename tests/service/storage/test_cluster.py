"""The service on a real Redis Cluster (three masters, ``redis_cluster.py``): configuration, key placement, pub/sub
across nodes, and the store, race and play tests that prove something on a cluster, run again on it.

The imported tests below (store, races, idempotency, play, lobby list, event streams, the clock, analyses) run here a
second time with this module's ``connect`` fixture: every app and every test
client of theirs talks to the cluster (their own modules keep running on the single Redis or fakeredis).
"""

from __future__ import annotations

import secrets
import socket
from collections.abc import Callable, Iterator

import pytest
import redis
import redis.retry
from gameclient import SORTED_DECK, started
from redis.client import PubSub
from redis_cluster import available, redis_cluster
from test_analysis_http import (  # noqa: F401 (analysing: the fixture of the analysis tests)
    analysing,
    test_one_process_works_a_game_out_and_both_answer_it,
    test_the_analysis_expires_with_its_game,
)
from test_clock import (
    test_a_bot_takes_an_idle_seat_over_until_its_owner_acts,
    test_a_person_who_completes_after_the_bot_s_due_time_loses_the_race,
    test_a_person_who_completes_before_the_bot_s_due_time_wins_the_race,
)
from test_complete_games import test_a_lost_game, test_a_won_game, test_replay_after_the_game_reproduces_it
from test_concurrency import (
    test_a_whole_game_played_by_racing_threads_with_if_match,
    test_different_plays_from_many_threads,
    test_the_same_play_from_many_threads_applies_once,
)
from test_daily import (  # noqa: F401 (daily_app and daily_http: the fixtures of the daily tests run here)
    daily_app,
    daily_http,
    test_a_competitive_result_has_a_place,
    test_a_finished_game_posts_its_result_once_read_from_the_game,
    test_processes_without_a_configured_secret_agree_on_one_drawn_once,
)
from test_daily_board import (  # noqa: F401 (board: the fixture of the board tests)
    board,
    test_a_deal_s_keys_share_a_slot_and_expire,
    test_one_result_per_token_and_deal,
    test_results_come_best_first_with_shared_ranks_and_pages,
)
from test_events import (
    test_a_reconnect_gets_every_view_after_its_last_event_id,
    test_every_event_is_the_readers_view_at_its_version,
)
from test_idempotency import test_a_retried_play_applies_once, test_a_retried_seat_returns_the_same_token
from test_lobby_list import (
    test_full_started_and_closed_lobbies_are_not_listed,
    test_pages_follow_cursors_without_duplicates_or_gaps,
    test_the_index_lives_on_one_cluster_slot,
)
from test_ninja_http import test_a_completion_that_reaches_the_store_first_wins
from test_pairing_http import (  # noqa: F401 (pairing_http: the fixture of the pairing tests)
    pairing_http,
    test_a_seat_in_a_three_seat_lobby_left_is_taken_by_the_next_and_an_empty_lobby_closes,
    test_bots_take_the_empty_seats_after_the_wait_and_the_game_starts,
    test_rated_seekers_meet_within_a_window_that_widens_while_the_lobby_waits,
    test_twenty_seekers_racing_through_two_apps_fill_five_tables,
    test_two_seekers_share_a_table_that_starts_by_itself,
)
from test_player_games import (
    test_live_games_come_first_then_finished_ones_newest_first,
    test_the_player_s_keys_and_index_share_one_slot,
)
from test_player_links import test_a_code_gives_another_device_a_key_of_the_same_player
from test_player_seats import test_a_key_s_changes_count_against_its_seat_s_budget
from test_rated_profiles import (
    test_erasing_a_player_drops_their_ratings_history_and_board_places,
    test_my_rank_on_a_leaderboard,
)
from test_rated_results import test_the_final_view_carries_both_ratings_before_and_after
from test_ratings import (  # noqa: F401 (boards, ratings, game_id: the fixtures of the ratings tests)
    boards,
    game_id,
    ratings,
    test_a_game_is_rated_from_its_ranking_and_stored_with_its_history,
    test_a_game_rated_twice_changes_nothing_the_second_time,
    test_a_player_moved_since_the_decision_gets_the_game_s_change,
    test_a_rating_stopped_halfway_is_completed_by_the_next_try,
    test_the_leaderboard_keeps_players_rated_in_the_last_30_days,
)
from test_seats_first import test_a_spectator_waits_for_the_seat_stream_another_process_holds
from test_store import (
    test_a_conflicting_change_is_recomputed_from_fresh_data,
    test_create_never_overwrites,
    test_endless_conflicts_give_up_with_store_busy_and_write_nothing,
    test_games_stay_small,
    test_one_hash_tagged_key_with_format_versions,
    test_ttl_follows_the_games_stage,
)
from test_the_game_record_http import test_the_record_counts_games_wins_scores_and_streaks_per_player_count

from service import create_app
from service.storage.redis_client import redis_client
from service.storage.store import game_key

ON_THE_CLUSTER = [
    test_a_seat_in_a_three_seat_lobby_left_is_taken_by_the_next_and_an_empty_lobby_closes,
    test_bots_take_the_empty_seats_after_the_wait_and_the_game_starts,
    test_rated_seekers_meet_within_a_window_that_widens_while_the_lobby_waits,
    test_twenty_seekers_racing_through_two_apps_fill_five_tables,
    test_two_seekers_share_a_table_that_starts_by_itself,
    test_a_game_is_rated_from_its_ranking_and_stored_with_its_history,
    test_a_game_rated_twice_changes_nothing_the_second_time,
    test_a_player_moved_since_the_decision_gets_the_game_s_change,
    test_a_rating_stopped_halfway_is_completed_by_the_next_try,
    test_the_leaderboard_keeps_players_rated_in_the_last_30_days,
    test_a_competitive_result_has_a_place,
    test_a_deal_s_keys_share_a_slot_and_expire,
    test_a_finished_game_posts_its_result_once_read_from_the_game,
    test_one_result_per_token_and_deal,
    test_processes_without_a_configured_secret_agree_on_one_drawn_once,
    test_results_come_best_first_with_shared_ranks_and_pages,
    test_a_bot_takes_an_idle_seat_over_until_its_owner_acts,
    test_a_person_who_completes_after_the_bot_s_due_time_loses_the_race,
    test_a_person_who_completes_before_the_bot_s_due_time_wins_the_race,
    test_a_reconnect_gets_every_view_after_its_last_event_id,
    test_every_event_is_the_readers_view_at_its_version,
    test_a_spectator_waits_for_the_seat_stream_another_process_holds,
    test_a_conflicting_change_is_recomputed_from_fresh_data,
    test_a_completion_that_reaches_the_store_first_wins,
    test_a_lost_game,
    test_a_retried_play_applies_once,
    test_a_retried_seat_returns_the_same_token,
    test_a_whole_game_played_by_racing_threads_with_if_match,
    test_a_won_game,
    test_create_never_overwrites,
    test_different_plays_from_many_threads,
    test_endless_conflicts_give_up_with_store_busy_and_write_nothing,
    test_full_started_and_closed_lobbies_are_not_listed,
    test_games_stay_small,
    test_one_hash_tagged_key_with_format_versions,
    test_pages_follow_cursors_without_duplicates_or_gaps,
    test_replay_after_the_game_reproduces_it,
    test_the_index_lives_on_one_cluster_slot,
    test_the_same_play_from_many_threads_applies_once,
    test_ttl_follows_the_games_stage,
    test_live_games_come_first_then_finished_ones_newest_first,
    test_the_player_s_keys_and_index_share_one_slot,
    test_a_code_gives_another_device_a_key_of_the_same_player,
    test_a_key_s_changes_count_against_its_seat_s_budget,
    test_the_final_view_carries_both_ratings_before_and_after,
    test_my_rank_on_a_leaderboard,
    test_erasing_a_player_drops_their_ratings_history_and_board_places,
    test_the_record_counts_games_wins_scores_and_streaks_per_player_count,
]


def cluster_client(url: str) -> redis.RedisCluster:
    """A client of the cluster at ``url``, as the service makes one."""
    client = redis_client({"REDIS_URL": url})
    assert isinstance(client, redis.RedisCluster)
    return client


def test_a_process_finds_the_cluster_through_any_node_its_url_names(redis_cluster_url: str) -> None:
    """The URL's first node down (a master killed): a worker started then still finds the cluster by the next one."""
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))  # a port nobody listens on
    url = redis_cluster_url.replace("://", f"://127.0.0.1:{dead.getsockname()[1]},", 1)
    try:
        client = cluster_client(url)
        assert client.ping() and len(client.get_primaries()) == 3
        client.close()
    finally:
        dead.close()


@pytest.fixture
def connect(redis_cluster_url: str) -> Iterator[Callable[[], redis.RedisCluster]]:
    """New clients of the cluster (overrides the conftest's for every test collected in this module)."""
    clients: list[redis.RedisCluster] = []

    def new_client() -> redis.RedisCluster:
        client = cluster_client(redis_cluster_url)
        clients.append(client)
        return client

    yield new_client
    for client in clients:
        client.close()


def node_of(client: redis.RedisCluster, key: str) -> redis.Redis:
    """A plain client of the master that owns ``key``'s slot."""
    node = client.get_node_from_key(key)
    return redis.Redis(host=node.host, port=node.port)


def first_message(subscriber: PubSub) -> bytes | None:
    """The data of the first message (subscribe confirmations skipped), waiting up to about 5 s."""
    for _ in range(50):
        message = subscriber.get_message(ignore_subscribe_messages=True, timeout=0.1)
        if message is not None:
            return message["data"]  # type: ignore[no-any-return]
    return None


def test_redis_url_names_a_cluster(
    redis_cluster_url: str, redis_client: redis.RedisCluster, queue_client: redis.Redis
) -> None:
    app = create_app({"REDIS_URL": redis_cluster_url, "TESTING": True, "QUEUE_CLIENT": queue_client})
    assert isinstance(app.extensions["service"].store.client, redis.RedisCluster)
    game = started(app.test_client(), players=2, seed=3)
    assert game.play(0, game.view(0).get_json()["legal_plays"][0]["card"], "asc1").status_code == 200
    owner = node_of(redis_client, game_key(game.game_id))
    assert owner.hget(game_key(game.game_id), "rev") == b"5"  # on its slot's master: create, 2 seats, start, play


def test_games_spread_over_every_master(redis_client: redis.RedisCluster) -> None:
    """The hash tag pins each game to one slot, not the whole service to one node."""
    masters = {(node.host, node.port) for node in redis_client.get_primaries()}
    owners = {redis_client.get_node_from_key(game_key(secrets.token_urlsafe(12))).port for _ in range(60)}
    assert len(masters) == 3 and owners == {port for _, port in masters}


def test_a_publish_from_a_script_reaches_subscribers_on_every_node(redis_client: redis.RedisCluster) -> None:
    """Change notifications published from inside the store's script (on the game's master) are broadcast by the
    cluster bus: a subscriber connected to any master receives them."""
    key = game_key(secrets.token_urlsafe(12))
    channel = f"test:{key}"
    subscribers = []
    for node in redis_client.get_primaries():
        subscriber = redis.Redis(host=node.host, port=node.port).pubsub()
        subscriber.subscribe(channel)
        subscribers.append(subscriber)
    publish = redis_client.register_script(
        "redis.call('EXPIRE', KEYS[1], 60) return redis.call('PUBLISH', ARGV[1], ARGV[2])"
    )
    publish(keys=[key], args=[channel, "changed"])
    for subscriber in subscribers:
        assert first_message(subscriber) == b"changed"
        subscriber.close()


def test_a_cluster_that_goes_away_answers_503(queue_client: redis.Redis) -> None:
    """Once every master is gone the client cannot even refresh its slot map: still ``503``, never ``500``."""
    with redis_cluster() as url:
        http = create_app({"REDIS_URL": url, "TESTING": True, "QUEUE_CLIENT": queue_client}).test_client()
        game = started(http, players=1, deck=SORTED_DECK)
    for response in (game.view(), http.post("/v1/games", json={"players": 1}), game.play(0, 2, "asc1")):
        assert response.status_code == 503 and response.get_json()["error"] == "store_unavailable"


def test_a_transaction_on_masters_that_went_away_is_tried_again_without_pausing(
    queue_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """redis-py pauses between tries with the ``time.sleep`` its ``retry`` module bound when first imported, before
    gevent patches ``time`` in a gunicorn worker: such a pause would stop the whole worker (every request, every
    stream, its heartbeat). The service's cluster client tries again at once: a player's creation (a transaction)
    with the cluster gone answers ``503`` without one pause."""
    pauses: list[float] = []
    monkeypatch.setattr(redis.retry, "sleep", pauses.append)
    with redis_cluster() as url:
        http = create_app({"REDIS_URL": url, "TESTING": True, "QUEUE_CLIENT": queue_client}).test_client()
        assert http.post("/v1/players", json={"name": "ann"}).status_code == 201
    answer = http.post("/v1/players", json={"name": "ann"})
    assert answer.status_code == 503 and answer.get_json()["error"] == "store_unavailable"
    assert pauses == []


def test_tg_redis_servers_off_skips_the_suite_s_own_redis_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TG_REDIS_SERVERS", "off")
    assert not available()
