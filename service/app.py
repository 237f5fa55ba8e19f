"""``create_app(config=None)``: the Flask app of the service, wired to its store, hub, clock, queue and limits (the
package's docstring says what each package holds)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

try:  # the service extra's packages, imported here first so that their absence says what to install
    import fakeredis  # noqa: F401
    import flask_smorest  # noqa: F401
    import marshmallow  # noqa: F401
    import redis  # noqa: F401
    import swagger_ui_bundle
    from flask import Blueprint, Flask
except ModuleNotFoundError as missing:  # `pip install thegame-core` without the extra: the core alone
    _HINT = f"the service needs {missing.name}, which is not installed: pip install 'thegame-core[service]'"
    raise ModuleNotFoundError(_HINT, name=missing.name) from None

from . import api, web
from .analysis import Analyses, AnalysisQueue, AnalysisStore
from .clock.runner import ClockRunner
from .config import Settings, from_env
from .daily import Daily, DailyBoard, DailySecret
from .daily.results import ResultPoster
from .daily.yardstick import job as yardstick_job
from .http import metered
from .http.bodies import BoundedChunkedBodies
from .http.errors import register_error_handlers
from .http.headers import options_reply, secure_headers
from .http.json_provider import FastJSONProvider
from .jobs import Jobs
from .limits import Budget, Limits
from .limits.streams import StreamSlots
from .pairing import Pairing, Pool, Window
from .pairing.pool import POOL_PREFIX
from .players import Accounts, GameIndex, LinkCodes, Players
from .ratings import Leaderboards, Ratings
from .ratings.finished import RatingPoster
from .runtime import Runtime
from .storage.eviction import EvictionGuard
from .storage.lobby_index import INDEX_PREFIX, LobbyIndex
from .storage.redis_client import queue_client, redis_client
from .storage.store import GameStore
from .streams.hub import Hub
from .streams.sse import read_game

__all__ = ["create_app"]

#: Swagger UI's scripts and styles, from the installed bundle rather than a CDN the user may not reach.
SWAGGER_UI_ASSETS = Blueprint(
    "swagger_ui_assets", __name__, static_folder=swagger_ui_bundle.swagger_ui_path, static_url_path="/docs/assets"
)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app, configured from the environment then ``config`` (tests pass ``REDIS_CLIENT`` to share one store
    between apps, ``LOBBY_INDEX_KEY`` for a lobby list of their own and ``CLOCK`` to move time by hand)."""
    app = Flask(__name__)
    app.config["CLOCK"] = time.time  # epoch seconds; tests inject their own to move time by hand
    app.config.update(from_env())
    app.config.update(config or {})
    app.json = FastJSONProvider(app)
    app.url_map.merge_slashes = False  # `//v1//games` is a 404, not a 308 whose Location is built from Host
    api.register(app)
    app.register_blueprint(SWAGGER_UI_ASSETS)
    app.register_blueprint(web.BLUEPRINT)
    register_error_handlers(app)
    metered.install(app)
    app.before_request(options_reply)
    app.before_request(api.health.refuse_if_evicting)
    app.after_request(secure_headers)
    app.wsgi_app = BoundedChunkedBodies(app)  # type: ignore[method-assign]
    app.extensions["service"] = _runtime(app.config)
    return app


def _runtime(config: Mapping[str, Any]) -> Runtime:
    """The process's store, lobby list, hub, clock runner and limits over one Redis client."""
    clock = config["CLOCK"]
    store = GameStore(
        redis_client(config),
        config["CAS_RETRIES"],
        config["MAX_GAME_BYTES"],
        config["WAIT_REPLICAS"],
        config["WAIT_MS"],
    )
    lobbies = LobbyIndex(store.client, config.get("LOBBY_INDEX_KEY", INDEX_PREFIX), clock)
    settings = Settings.of(config)
    hub = Hub(store.client, partial(read_game, store), config["SEATS_FIRST_MS"] / 1000)
    runner = ClockRunner(store, settings, clock, hub.watches)
    jobs = _jobs(config, store)
    analyses = Analyses(
        store,
        AnalysisStore(store.client),
        AnalysisQueue(jobs.client, jobs.namespace),
        jobs.actor,
        config["ANALYSIS_ROLLOUTS"],
        config["ANALYSIS_PARTS"],
    )
    daily, limits = _daily(config, store, jobs), _limits(config, store)
    players = _players(config, store, settings)
    ratings = _ratings(config, store)
    eviction = EvictionGuard(store.client)
    eviction.check_at_start()
    pool = Pool(store.client, config.get("PAIRING_PREFIX", POOL_PREFIX), settings.lobby_ttl * 1000, Window())
    return Runtime(
        store,
        lobbies,
        hub,
        runner,
        settings,
        clock,
        daily,
        jobs,
        analyses,
        players,
        ratings,
        eviction,
        Pairing(pool),
        limits,
    )


def _ratings(config: Mapping[str, Any], store: GameStore) -> Ratings:
    """Players' ratings, kept as long as a player is (``TG_PLAYER_TTL``) after their last rated game, and the
    leaderboards; a write that ends a rated game rates it, and one that ends The Game stores it in its players'
    records, after the players' hook; each of these writes is confirmed by the store's replicas (``TG_WAIT_REPLICAS``).
    Tests may set ``RATINGS_PREFIX`` (leaderboards of their own)."""
    boards = Leaderboards(store.client, config.get("RATINGS_PREFIX", "tg:"), store.replicas)
    ratings = Ratings(store.client, boards, config["PLAYER_TTL"], store.replicas)
    _after_write(store, RatingPoster(ratings).written)
    _after_write(store, ratings.the_game.written)
    return ratings


def _after_write(store: GameStore, hook: Callable[[str, dict[str, str]], None]) -> None:
    """``hook`` told of every write the store makes, after the hooks set before it."""
    earlier = store.after_write
    if earlier is None:
        store.after_write = hook
        return

    def both(game_id: str, fields: dict[str, str]) -> None:
        earlier(game_id, fields)
        hook(game_id, fields)

    store.after_write = both


def _jobs(config: Mapping[str, Any], store: GameStore) -> Jobs:
    """The job queue (``TG_QUEUE_URL``). Its jobs also run in a thread of this process (``QUEUE_THREAD``) by default
    only on the embedded store, which no worker process can reach. Tests may set ``QUEUE_CLIENT`` and
    ``QUEUE_NAMESPACE`` (a queue of their own)."""
    thread = config.get("QUEUE_THREAD", config["REDIS_URL"] is None)
    namespace = config.get("QUEUE_NAMESPACE", "tg-jobs")
    return Jobs(queue_client(config, store.client), namespace, thread, config["QUEUE_HEARTBEAT_MS"])


def _daily(config: Mapping[str, Any], store: GameStore, jobs: Jobs) -> Daily:
    """The daily deals' board and secret; every write of a finished daily game posts its result; the yardstick's job.
    Tests may set ``DAILY_PREFIX`` (boards and a secret of their own)."""
    prefix = config.get("DAILY_PREFIX", "tg:")
    board = DailyBoard(store.client, prefix, config["DAILY_TTL"], store.replicas)
    secret = DailySecret(store.client, f"{prefix}{{daily}}:secret", config["DAILY_SECRET"])
    daily = Daily(board, secret, jobs.actor("yardstick", yardstick_job(board, secret), "daily"))
    store.after_write = ResultPoster(daily, config["CLOCK"]).written
    return daily


def _players(config: Mapping[str, Any], store: GameStore, settings: Settings) -> Players:
    """Players' accounts, link codes and games' index; a write that ends a game with players moves their entries,
    after the daily deals' hook."""
    index = GameIndex(store.client, lambda: settings.longest_ttl)
    _after_write(store, index.after_write)
    return Players(Accounts(store.client, config["PLAYER_TTL"]), index, LinkCodes(store.client))


def _limits(config: Mapping[str, Any], store: GameStore) -> Limits | None:
    """Limits as configured: on unless ``TG_LIMITS`` is off, or unset in an app built for tests (``TESTING``).
    Tests may set ``LIMITS_PREFIX`` (their own keys for address budgets and the cap; a token's budget is always on
    its game's slot, ``tg:{<game_id>}:rate``) and ``LIMITS_CLOCK``."""
    if not (config["LIMITS"] if config["LIMITS"] is not None else not config.get("TESTING")):
        return None
    names = ("create", "change", "list", "analysis")
    budgets = tuple(Budget(name, *config[f"{name.upper()}_RATE"]) for name in names)
    prefix, clock = config.get("LIMITS_PREFIX", "tg:"), config.get("LIMITS_CLOCK", time.time)
    streams = None
    if config["STREAMS_PER_CLIENT"]:
        streams = StreamSlots(store.client, prefix, config["STREAMS_PER_CLIENT"], config["STREAM_KEEPALIVE"], clock)
    limits = Limits(store.client, budgets, config["MAX_GAMES"], prefix, clock, streams)
    if limits.max_games:
        store.on_write = limits.written
    return limits
