"""Settings from the environment, so one image runs anywhere (twelve-factor style)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from thegame_core.analysis import DEFAULT_ROLLOUTS, MAX_ROLLOUTS
from thegame_core.daily import parse_day

from .jobs import HEARTBEAT_MS

if TYPE_CHECKING:
    from .records.game_record import GameRecord

DAY = 24 * 3600
MAX_GAME_BYTES = 64 * 1024
#: Limits on by default (``service/limits.py``, docs/api.md "Limits"): per client, a burst of 30 creations then
#: one per 20 s; a burst of 120 changes (a whole game played by a bot at full speed) then 10 per second.
CREATE_RATE = "30/600"
CHANGE_RATE = "120/12"
LIST_RATE = "120/60"
#: Analyses a client address may start: 10 at once, then one a minute (each costs seconds to minutes of CPU).
ANALYSIS_RATE = "10/600"
MAX_GAMES = 20_000
#: Open event streams per address and per token: a few tabs and bots of one household, not thousands of sockets.
STREAMS_PER_CLIENT = 20
#: The least a bot waits when no person plays the game (every seat a bot's): a game of bots alone is watched, not
#: played, and a crowd of such games must leave the processes' time to people's requests.
BOTS_ALONE_MS = 250
_ON = {"1", "true", "yes", "on"}
_OFF = {"0", "false", "no", "off"}

#: Environment variable -> (Flask config key, default). TTLs are in seconds.
_INT_SETTINGS = {
    "TG_LOBBY_TTL": ("LOBBY_TTL", DAY),  # a lobby nobody starts
    "TG_GAME_TTL": ("GAME_TTL", 7 * DAY),  # a running game nobody touches (abandoned)
    "TG_FINISHED_TTL": ("FINISHED_TTL", DAY),  # a won or lost game, kept for its log and replay
    "TG_HISTORY_TTL": ("HISTORY_TTL", 90 * DAY),  # a finished game a player played (service/players), for its history
    "TG_PLAYER_TTL": ("PLAYER_TTL", 400 * DAY),  # a player none of whose keys is used that long is forgotten
    "TG_MAX_BODY_BYTES": ("MAX_CONTENT_LENGTH", 16 * 1024),
    "TG_CAS_RETRIES": ("CAS_RETRIES", 64),  # optimistic transaction attempts before 503 store_busy
    "TG_MAX_GAME_BYTES": ("MAX_GAME_BYTES", MAX_GAME_BYTES),  # a change past it: 409 game_too_large
    "TG_STREAM_KEEPALIVE": ("STREAM_KEEPALIVE", 15),  # seconds between an event stream's keep-alive comments
    "TG_STREAM_LIFETIME": ("STREAM_LIFETIME", 3600),  # seconds a stream lasts; the client then reconnects
    "TG_STREAM_WRITE_TIMEOUT": ("STREAM_WRITE_TIMEOUT", 5),  # seconds a stream's write may take; then it ends
    "TG_SEATS_FIRST_MS": ("SEATS_FIRST_MS", 50),  # the most a change's spectators wait for its seats' streams
    "TG_REMATCH_WAIT": ("REMATCH_WAIT", 600),  # seconds a finished game's streams stay open for its rematch
    "TG_BOT_DECISIONS": ("BOT_DECISIONS", 4),  # bot decisions one request may make; the rest stays due
    "TG_BOT_SHARE": ("BOT_SHARE", 50),  # percent of a process's time its clock runner may spend on bots
    "TG_DAILY_TTL": ("DAILY_TTL", 90 * DAY),  # a daily deal's leaderboard, after its last result
    "TG_ANALYSIS_ROLLOUTS": ("ANALYSIS_ROLLOUTS", DEFAULT_ROLLOUTS),  # playouts per choice of an analysis
    "TG_ANALYSIS_PARTS": ("ANALYSIS_PARTS", 8),  # jobs an analysis is split into, by decision, for the workers
    "TG_QUEUE_HEARTBEAT_MS": ("QUEUE_HEARTBEAT_MS", HEARTBEAT_MS),  # a silent worker's jobs go back to the queue
    "TG_WAIT_MS": ("WAIT_MS", 500),  # the most a lasting write (game's end, daily result, rating) waits for replicas
}


def _positive_int(name: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} must be a positive integer, got {text!r}") from None
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {text!r}")
    return value


#: An origin as browsers send it: scheme, host, optional port; no path, no trailing slash.
_ORIGIN = re.compile(r"https?://[^/\s,]+")


def cors_origins(text: str) -> tuple[str, ...]:
    """``TG_CORS_ORIGINS``: comma-separated exact origins, or ``*`` for any; empty: none (no CORS headers)."""
    origins = tuple(origin.strip() for origin in text.split(",") if origin.strip())
    if origins == ("*",):
        return origins
    for origin in origins:
        if not _ORIGIN.fullmatch(origin):
            raise ValueError(f"TG_CORS_ORIGINS: {origin!r} is not an origin such as https://example.org (or use *)")
    return origins


def switch(name: str, text: str) -> bool | None:
    """An on/off setting: ``on``/``off`` (or 1/0, true/false, yes/no); empty: ``None``, the default."""
    value = text.strip().lower()
    if not value:
        return None
    if value in _ON or value in _OFF:
        return value in _ON
    raise ValueError(f"{name} must be on or off, got {text!r}")


def rate(name: str, text: str) -> tuple[int, int]:
    """A rate limit ``N/S``: up to N requests at once, then N per S seconds (``(N, S)``)."""
    count, _, seconds = text.partition("/")
    return _positive_int(name, count.strip()), _positive_int(name, seconds.strip())


def cap(name: str, text: str) -> int:
    """A cap such as ``TG_MAX_GAMES`` (the most live lobbies and games): a positive integer; 0: no cap."""
    return 0 if text.strip() == "0" else _positive_int(name, text)


def _limits(environ: Mapping[str, str]) -> dict[str, Any]:
    """The limits' settings (``service/limits.py``; unset or empty: the default); ``LIMITS`` is ``None`` unless
    ``TG_LIMITS`` says on or off."""
    return {
        "LIMITS": switch("TG_LIMITS", environ.get("TG_LIMITS", "")),
        "CREATE_RATE": rate("TG_CREATE_RATE", environ.get("TG_CREATE_RATE") or CREATE_RATE),
        "CHANGE_RATE": rate("TG_CHANGE_RATE", environ.get("TG_CHANGE_RATE") or CHANGE_RATE),
        "LIST_RATE": rate("TG_LIST_RATE", environ.get("TG_LIST_RATE") or LIST_RATE),
        "ANALYSIS_RATE": rate("TG_ANALYSIS_RATE", environ.get("TG_ANALYSIS_RATE") or ANALYSIS_RATE),
        "MAX_GAMES": cap("TG_MAX_GAMES", environ.get("TG_MAX_GAMES") or str(MAX_GAMES)),
        "STREAMS_PER_CLIENT": cap(
            "TG_STREAMS_PER_CLIENT", environ.get("TG_STREAMS_PER_CLIENT") or str(STREAMS_PER_CLIENT)
        ),
        "TRUSTED_PROXY_HEADER": environ.get("TG_TRUSTED_PROXY_HEADER", "").strip() or None,
    }


def metrics_port(text: str) -> int | None:
    """``TG_METRICS_PORT``: the port that alone answers ``/metrics`` (empty: the service's own port answers it)."""
    return _positive_int("TG_METRICS_PORT", text.strip()) if text.strip() else None


def _bots_alone(text: str | None) -> int:
    """``TG_BOTS_ALONE_MS``: the least a bot waits in a game with no person (0: no floor)."""
    return BOTS_ALONE_MS if text is None else cap("TG_BOTS_ALONE_MS", text)


def from_env(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Flask config values from ``environ``: ``REDIS_URL`` (none: embedded store), TTLs, limits, CORS origins."""
    environ = os.environ if environ is None else environ
    config: dict[str, Any] = {"REDIS_URL": environ.get("REDIS_URL") or None}
    config["QUEUE_URL"] = queue_url(environ.get("TG_QUEUE_URL") or None, config["REDIS_URL"])
    config["CORS_ORIGINS"] = cors_origins(environ.get("TG_CORS_ORIGINS", ""))
    for variable, (key, default) in _INT_SETTINGS.items():
        text = environ.get(variable)
        config[key] = default if text is None else _positive_int(variable, text)
    if config["ANALYSIS_ROLLOUTS"] > MAX_ROLLOUTS:
        raise ValueError(f"TG_ANALYSIS_ROLLOUTS must be at most {MAX_ROLLOUTS}, got {config['ANALYSIS_ROLLOUTS']}")
    config["BOTS_ALONE_MS"] = _bots_alone(environ.get("TG_BOTS_ALONE_MS"))
    config["WAIT_REPLICAS"] = cap("TG_WAIT_REPLICAS", environ.get("TG_WAIT_REPLICAS") or "0")  # 0: none
    config["DAILY_SECRET"] = environ.get("TG_DAILY_SECRET") or None  # none: drawn once, kept in Redis
    config["METRICS_PORT"] = metrics_port(environ.get("TG_METRICS_PORT", ""))
    if environ.get("TG_PAIRING_PREFIX"):  # Play now's keys elsewhere (a hash tag of their own): tests sharing a Redis
        config["PAIRING_PREFIX"] = environ["TG_PAIRING_PREFIX"]
    config.update(_limits(environ))
    return config


def queue_url(url: str | None, redis_url: str | None) -> str | None:
    """``TG_QUEUE_URL``, the job queue's own plain Redis (``None``: the games' Redis, ``REDIS_URL``, or the embedded
    store), which must be set when ``REDIS_URL`` names a Redis Cluster: the queue's scripts name keys a cluster cannot
    route (``service/jobs.py``)."""
    if url is not None and url.partition("://")[0].endswith("+cluster"):
        raise ValueError(f"TG_QUEUE_URL must name a plain Redis, not a cluster: {url!r}")
    if url is None and redis_url is not None and redis_url.partition("://")[0].endswith("+cluster"):
        raise ValueError("REDIS_URL names a Redis Cluster: set TG_QUEUE_URL to a plain Redis for the job queue")
    return url


def port(environ: Mapping[str, str] | None = None) -> int:
    environ = os.environ if environ is None else environ
    return _positive_int("PORT", environ.get("PORT", "8000"))


def host(environ: Mapping[str, str] | None = None) -> str:
    """The address ``python -m service`` listens on: ``HOST``, default 127.0.0.1 (this machine only)."""
    environ = os.environ if environ is None else environ
    return environ.get("HOST", "").strip() or "127.0.0.1"


@dataclass(frozen=True)
class Settings:
    """The settings the layers below the routes use, as plain values (read once from the app's config): they
    take these, never Flask's ``current_app``."""

    lobby_ttl: int
    game_ttl: int
    finished_ttl: int
    history_ttl: int
    daily_ttl: int
    bot_decisions: int
    bot_share: int
    bots_alone_ms: int
    rematch_wait: int
    stream_keepalive: int
    stream_lifetime: int
    stream_write_timeout: float

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> Settings:
        return cls(
            config["LOBBY_TTL"],
            config["GAME_TTL"],
            config["FINISHED_TTL"],
            config["HISTORY_TTL"],
            config["DAILY_TTL"],
            config["BOT_DECISIONS"],
            min(100, config["BOT_SHARE"]),
            config["BOTS_ALONE_MS"],
            config["REMATCH_WAIT"],
            config["STREAM_KEEPALIVE"],
            config["STREAM_LIFETIME"],
            config["STREAM_WRITE_TIMEOUT"],
        )

    def ttl_for(self, status: str, played_by_players: bool = False) -> int:
        """Seconds a game lives untouched: a lobby, a game being played, or a finished one, kept for its log
        (``TG_HISTORY_TTL`` when a player played it: it is in that player's history)."""
        finished = self.history_ttl if played_by_players else self.finished_ttl
        return {"lobby": self.lobby_ttl, "playing": self.game_ttl}.get(status, finished)

    def ttl_of(self, record: GameRecord, now: float) -> int:
        """Seconds ``record``, written at ``now``, lives untouched: ``ttl_for`` its stage, except a finished daily game
        in no player's history, kept until the end of the day after its day (UTC) so that the board's link to it
        works a whole day, within ``finished_ttl`` and ``daily_ttl``. The write that ends a game sets this expiry,
        so the replicas that confirm the end (``TG_WAIT_REPLICAS``) confirm it too."""
        if record.daily is None or record.has_players or record.status in ("lobby", "playing"):
            return self.ttl_for(record.status, record.has_players)
        linked = datetime.combine(parse_day(record.daily) + timedelta(days=2), time.min, UTC).timestamp()
        return min(self.daily_ttl, max(self.finished_ttl, int(linked - now)))

    @property
    def longest_ttl(self) -> int:
        """The longest any game is kept: a player's index of games lives that long after its last addition."""
        return max(self.lobby_ttl, self.game_ttl, self.finished_ttl, self.history_ttl)
