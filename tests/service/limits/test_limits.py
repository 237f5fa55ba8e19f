"""Rate limits per client and the cap on live games: on only where a test turns them on, over a clock it moves.

Every test has its own key prefix (the real Redis is shared with other test runs) and deletes the one key
that does not expire by itself, the live games' set.
"""

from __future__ import annotations

import json
import secrets
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, bearer, error_of, new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis.crc import key_slot
from servers import running
from werkzeug.test import TestResponse

from service.config import from_env
from service.errors import ApiError
from service.limits import Budget, Limits, client_address
from service.storage.store import budget_key, game_key

CREATE_RATE = (3, 30)  # 3 at once, then one every 10 s
CHANGE_RATE = (5, 5)  # 5 at once, then one a second


@pytest.fixture
def prefix(redis_client: redis.Redis) -> Iterator[str]:
    prefix = f"test-limits-{secrets.token_hex(8)}:"
    yield prefix
    redis_client.delete(f"{prefix}{{live}}")


@pytest.fixture
def limited(make_app: Callable[..., Flask], prefix: str, clock: FakeClock) -> Callable[..., FlaskClient]:
    """A client of an app with limits on (small budgets, no cap unless given), from the address 192.0.2.1."""

    def make(**config: Any) -> FlaskClient:
        settings = {"CREATE_RATE": CREATE_RATE, "CHANGE_RATE": CHANGE_RATE, "MAX_GAMES": 0, **config}
        http = make_app(LIMITS=True, LIMITS_PREFIX=prefix, LIMITS_CLOCK=clock, **settings).test_client()
        http.environ_base["REMOTE_ADDR"] = "192.0.2.1"
        return http

    return make


def create(http: FlaskClient, **headers: str) -> TestResponse:
    return http.post("/v1/games", json={"players": 1}, headers=headers)


def refused(response: TestResponse) -> int:
    """The ``Retry-After`` seconds of a ``429 rate_limited``."""
    assert error_of(response) == (429, "rate_limited"), response.get_json()
    return int(response.headers["Retry-After"])


# Rate limits ---------------------------------------------------------------------------------
def test_creations_beyond_the_burst_are_refused_with_retry_after(limited: Callable[..., FlaskClient]) -> None:
    http = limited()
    assert [create(http).status_code for _ in range(3)] == [201, 201, 201]
    response = create(http)
    assert refused(response) == 10
    assert "retry in 10 s" in response.get_json()["message"]


def test_the_budget_refills_with_time(limited: Callable[..., FlaskClient], clock: FakeClock) -> None:
    http = limited()
    for _ in range(3):
        create(http)
    clock.now += 9.5
    assert refused(create(http)) == 1  # 0.5 s to go, rounded up
    clock.now += 0.5
    assert create(http).status_code == 201
    assert refused(create(http)) == 10
    clock.now += 30  # a full bucket again, and no more than full
    assert [create(http).status_code for _ in range(4)] == [201, 201, 201, 429]


def test_each_address_has_its_own_budget(limited: Callable[..., FlaskClient]) -> None:
    http = limited()
    for _ in range(3):
        create(http)
    assert refused(create(http)) == 10
    http.environ_base["REMOTE_ADDR"] = "192.0.2.2"
    assert create(http).status_code == 201


def test_a_made_up_token_does_not_buy_a_creation(limited: Callable[..., FlaskClient]) -> None:
    """A creation counts against the address whatever token comes with it: no token belongs to a new game."""
    http = limited()
    answers = [create(http, **bearer(secrets.token_urlsafe(32))).status_code for _ in range(4)]
    assert answers == [201, 201, 201, 429]


def test_a_rematch_refused_for_its_game_or_token_spends_no_creation(limited: Callable[..., FlaskClient]) -> None:
    """A rematch of an unknown game (404) or with a token not the host's (401) creates nothing: the creation
    budget is charged only after those checks, so a real creation still passes."""
    http = limited()
    game = GameClient(http, create(http))
    for _ in range(10):
        assert error_of(http.post("/v1/games/no-such-game/rematch", headers=bearer(game.host))) == (404, "unknown_game")
        made_up = bearer(secrets.token_urlsafe(32))
        assert error_of(http.post(f"{game.url}/rematch", headers=made_up)) == (401, "invalid_token")
    assert [create(http).status_code for _ in range(3)] == [201, 201, 429]


def test_each_valid_token_has_its_own_change_budget(limited: Callable[..., FlaskClient]) -> None:
    http = limited()
    game = new_game(http, players=2, seed=1)
    game.fill()  # two seats taken without a token: 2 changes of the address's 5
    assert game.start(first_seat=0).status_code == 200  # the host token's first change
    assert [game.end_turn(1).status_code for _ in range(5)] == [409] * 5  # out of turn, yet counted
    assert refused(game.end_turn(1)) == 1
    assert game.end_turn(0).status_code != 429  # another token from the same address
    lobby = new_game(http, players=4)  # the address's own budget: 3 changes left
    assert [lobby.seat(f"p{seat}").status_code for seat in range(4)] == [201, 201, 201, 429]


def test_churning_a_seat_grants_no_fresh_budget(limited: Callable[..., FlaskClient]) -> None:
    """A seat spends its budget, the host frees it, the client takes it again (from another address, so that its
    address's budget does not stop it) with a fresh token: the seat's budget is the one it spent."""
    http = limited()
    game = new_game(http, players=2)
    counted = 0
    for cycle in range(4):
        http.environ_base["REMOTE_ADDR"] = f"198.51.100.{cycle}"
        assert game.seat("churner").status_code == 201
        answers = [game.end_turn(0).status_code for _ in range(6)]  # in the lobby: 409, yet counted
        counted += sum(status != 429 for status in answers)
        assert game.http.delete(f"{game.url}/seats/0", headers=bearer(game.host)).status_code == 204
    assert counted == CHANGE_RATE[0]


def test_reads_of_the_lobby_list_are_limited_per_address(limited: Callable[..., FlaskClient]) -> None:
    http = limited(LIST_RATE=(4, 4))
    assert [http.get("/v1/games").status_code for _ in range(4)] == [200] * 4
    assert refused(http.get("/v1/games", query_string={"limit": 1})) == 1
    http.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    assert http.get("/v1/games").status_code == 200  # another address, its own budget
    assert http.get("/v1/games/catalog").status_code == 200  # other reads are not limited


def test_a_token_s_budget_is_kept_on_its_game_s_slot(
    limited: Callable[..., FlaskClient], redis_client: redis.Redis
) -> None:
    """The script that loads a game charges its token's budget: the budget's key must sit on the game's Redis
    Cluster slot, and a token of another game is charged nowhere."""
    http = limited()
    game, other = new_game(http, players=1, seed=1), new_game(http, players=1)
    game.fill()
    assert game.start().status_code == 200
    key = budget_key(game.game_id)
    assert key_slot(key.encode()) == key_slot(game_key(game.game_id).encode())
    assert 0 < redis_client.pttl(key) <= 1_000  # one of 5 a second: full again within an interval
    assert redis_client.hkeys(key) == [b"host"]
    stranger = http.post(f"{game.url}/start", json={}, headers=bearer(other.host))
    assert error_of(stranger) == (401, "invalid_token")
    assert redis_client.hkeys(key) == [b"host"] and redis_client.exists(budget_key(other.game_id)) == 0
    named = new_game(http, players=1)
    assert named.seat("malformed").status_code == 201  # the word an unreadable Authorization header is read as
    basic = http.post(f"{named.url}/start", json={}, headers={"Authorization": "Basic eHl6"})
    assert error_of(basic) == (401, "invalid_token")
    assert redis_client.exists(budget_key(named.game_id)) == 0


def test_a_made_up_token_counts_nowhere_and_changes_nothing(limited: Callable[..., FlaskClient]) -> None:
    """A token is checked before it is counted: a made-up one answers 401, so it cannot open a fresh budget."""
    http = limited(CHANGE_RATE=(3, 3))
    game = new_game(http, players=4)
    assert [game.seat(f"p{seat}").status_code for seat in range(4)] == [201, 201, 201, 429]
    made_up = bearer(secrets.token_urlsafe(32))
    answer = http.post(f"{game.url}/seats", json={"name": "intruder"}, headers=made_up)
    assert error_of(answer) == (401, "invalid_token")
    assert game.view().get_json()["seats"][3]["name"] is None
    for _ in range(10):
        assert error_of(http.post(f"{game.url}/start", json={}, headers=made_up)) == (401, "invalid_token")
    assert game.start().status_code == 409  # the host token's budget is whole: seats_free, not 429


def test_the_proxy_header_is_ignored_unless_configured(limited: Callable[..., FlaskClient]) -> None:
    http = limited()
    answers = [create(http, **{"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(4)]
    assert answers == [201, 201, 201, 429]


def test_the_configured_proxy_header_names_the_client_by_its_rightmost_address(
    limited: Callable[..., FlaskClient],
) -> None:
    http = limited(TRUSTED_PROXY_HEADER="X-Forwarded-For")
    for n in range(3):  # the leftmost addresses are the client's to forge: they do not matter
        assert create(http, **{"X-Forwarded-For": f"198.51.100.{n}, 203.0.113.7"}).status_code == 201
    assert refused(create(http, **{"X-Forwarded-For": "203.0.113.7"})) == 10
    assert create(http, **{"X-Forwarded-For": "198.51.100.1, 203.0.113.8"}).status_code == 201
    # a header line of the client's own, then the proxy's: the lines are one list, the proxy's hop last
    forged = [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-For", "203.0.113.7")]
    assert refused(http.post("/v1/games", json={"players": 1}, headers=forged)) == 10


@pytest.mark.parametrize(
    ("remote", "forwarded", "client"),
    [
        ("192.0.2.1", None, "192.0.2.1"),
        ("192.0.2.1", "203.0.113.5", "203.0.113.5"),
        ("192.0.2.1", " 1.2.3.4 ,203.0.113.5 ", "203.0.113.5"),
        ("192.0.2.1", "not an address", "192.0.2.1"),
        ("2001:db8:1:2:3:4:5:6", None, "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", None, "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.9", None, "192.0.2.9"),
        (None, None, "unknown"),
    ],
)
def test_client_address(remote: str | None, forwarded: str | None, client: str) -> None:
    assert client_address(remote, forwarded) == client


def test_counters_expire_when_their_bucket_is_full_again(
    limited: Callable[..., FlaskClient], redis_client: redis.Redis, prefix: str
) -> None:
    http = limited()
    key = f"{prefix}rate:{{create:a:192.0.2.1}}"
    create(http)
    assert 9_000 < redis_client.pttl(key) <= 10_000
    create(http)
    create(http)
    create(http)  # refused: writes nothing
    assert 29_000 < redis_client.pttl(key) <= 30_000  # never longer than the budget's period


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    burst=st.integers(1, 6),
    seconds=st.integers(1, 20),
    gaps=st.lists(st.integers(0, 5_000), min_size=1, max_size=40),
)
def test_gcra_never_lets_more_through_than_its_rate_and_retry_after_is_enough(
    redis_client: redis.Redis, prefix: str, burst: int, seconds: int, gaps: list[int]
) -> None:
    clock = FakeClock()
    budget = Budget("change", burst, seconds)
    limits = Limits(redis_client, (budget, budget, budget, budget), 0, prefix, clock)
    client = secrets.token_hex(8)
    passed: list[int] = []  # ms, as the limiter sees them
    for gap in gaps:
        clock.now += gap / 1000
        try:
            limits.charge(budget, client)
        except ApiError as error:  # refused: waiting Retry-After seconds is enough
            assert error.retry_after is not None and error.retry_after >= 1
            clock.now += error.retry_after
            limits.charge(budget, client)
        passed.append(int(clock.now * 1000))
        for start in passed:  # in any stretch of time: the burst, plus one per interval
            assert sum(start <= t for t in passed) <= burst + (passed[-1] - start) // budget.interval_ms


# The cap on live games -----------------------------------------------------------------------
def test_the_cap_refuses_creations_until_a_game_goes(
    limited: Callable[..., FlaskClient], clock: FakeClock, redis_client: redis.Redis, prefix: str
) -> None:
    http = limited(MAX_GAMES=2, CREATE_RATE=(100, 1))
    first, _second = new_game(http), new_game(http)
    full = create(http)
    assert error_of(full) == (503, "capacity")
    assert 1 <= int(full.headers["Retry-After"]) <= 60
    assert http.delete(first.url, headers=bearer(first.host)).status_code == 204  # a closed lobby frees room
    assert create(http).status_code == 201
    assert error_of(create(http)) == (503, "capacity")
    clock.now += 301  # the tests' lobbies live 300 s: both have expired
    assert [create(http).status_code for _ in range(3)] == [201, 201, 503]
    assert redis_client.zcard(f"{prefix}{{live}}") == 2  # the expired entries were pruned


def test_writes_renew_a_game_s_expiry_in_the_count(
    limited: Callable[..., FlaskClient], clock: FakeClock, redis_client: redis.Redis, prefix: str
) -> None:
    http = limited(MAX_GAMES=10)
    game: GameClient = new_game(http, players=2)
    live = f"{prefix}{{live}}"
    assert redis_client.zscore(live, game.game_id) == (clock.now + 300) * 1000
    clock.now += 200
    game.seat()
    assert redis_client.zscore(live, game.game_id) == (clock.now + 300) * 1000
    clock.now += 3  # 1% of the TTL: the entry is left as it is
    game.seat()
    assert redis_client.zscore(live, game.game_id) == (clock.now - 3 + 300) * 1000
    assert http.delete(game.url, headers=bearer(game.host)).status_code == 204
    assert redis_client.zscore(live, game.game_id) is None


# Defaults and documentation --------------------------------------------------------------------
def test_limits_are_off_in_the_test_suite_unless_a_test_turns_them_on(http: FlaskClient) -> None:
    assert all(create(http).status_code == 201 for _ in range(35))  # past the default burst of 30


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, (None, (30, 600), (120, 12), (120, 60), (10, 600), 20_000, None)),
        (
            {
                "TG_LIMITS": "off",
                "TG_CREATE_RATE": "5/60",
                "TG_CHANGE_RATE": " 50 / 10 ",
                "TG_LIST_RATE": "6/3",
                "TG_ANALYSIS_RATE": "2/60",
                "TG_MAX_GAMES": "0",
                "TG_TRUSTED_PROXY_HEADER": "X-Real-IP",
            },
            (False, (5, 60), (50, 10), (6, 3), (2, 60), 0, "X-Real-IP"),
        ),
        ({"TG_LIMITS": "on", "TG_CREATE_RATE": ""}, (True, (30, 600), (120, 12), (120, 60), (10, 600), 20_000, None)),
    ],
)
def test_settings(environ: dict[str, str], expected: tuple[Any, ...]) -> None:
    config = from_env(environ)
    names = ("LIMITS", "CREATE_RATE", "CHANGE_RATE", "LIST_RATE", "ANALYSIS_RATE", "MAX_GAMES", "TRUSTED_PROXY_HEADER")
    assert tuple(config[name] for name in names) == expected


@pytest.mark.parametrize(
    "environ",
    [
        {"TG_LIMITS": "maybe"},
        {"TG_CREATE_RATE": "10"},
        {"TG_CHANGE_RATE": "0/1"},
        {"TG_LIST_RATE": "x"},
        {"TG_ANALYSIS_RATE": "1/0"},
        {"TG_ANALYSIS_ROLLOUTS": "0"},
        {"TG_ANALYSIS_ROLLOUTS": "1001"},
        {"TG_ANALYSIS_PARTS": "0"},
        {"TG_MAX_GAMES": "-1"},
        {"TG_QUEUE_URL": "redis+cluster://127.0.0.1:7000/0"},  # the job queue needs a plain Redis
        {"REDIS_URL": "redis+cluster://127.0.0.1:7000/0"},  # ... so a cluster of games needs TG_QUEUE_URL too
    ],
)
def test_bad_settings_are_refused(environ: dict[str, str]) -> None:
    with pytest.raises(ValueError, match=next(iter(environ))):
        from_env(environ)


def test_the_openapi_document_lists_the_limits(http: FlaskClient) -> None:
    paths = http.get("/v1/openapi.json").get_json()["paths"]
    creation = paths["/v1/games"]["post"]["responses"]
    assert "rate_limited" in creation["429"]["description"]
    assert "capacity" in creation["503"]["description"]
    assert "rate_limited" in paths["/v1/games"]["get"]["responses"]["429"]["description"]
    for path in ("/v1/games/{game_id}/actions", "/v1/games/{game_id}/seats", "/v1/games/{game_id}/start"):
        assert "rate_limited" in paths[path]["post"]["responses"]["429"]["description"]


SERVERS = {
    "gunicorn": [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py", "service:create_app()"],
    "python -m service": [sys.executable, "-m", "service"],
}


@pytest.mark.parametrize("server", SERVERS)
def test_limits_are_on_by_default_outside_the_test_suite(monkeypatch: pytest.MonkeyPatch, server: str) -> None:
    for name in ("TG_LIMITS", "REDIS_URL", "TG_CREATE_RATE"):
        monkeypatch.setenv(name, "")  # the defaults, over the embedded store (not the Redis others test on)
    with running(SERVERS[server]) as (port, _):
        statuses, refusal = [], None
        for _ in range(31):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/games", b'{"players": 1}', {"Content-Type": "application/json"}
            )
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    statuses.append(response.status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
                refusal = (int(error.headers["Retry-After"]), json.loads(error.read())["error"])
    assert statuses == [201] * 30 + [429]
    assert refusal is not None and 1 <= refusal[0] <= 20 and refusal[1] == "rate_limited"
