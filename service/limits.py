"""Per-client rate limits and a cap on live games, so that no client can flood the store (docs/api.md "Limits").

Rate limits use GCRA (``gcra.py``: a token bucket kept as one timestamp, the time at which the client's bucket
is full again, in a key that expires then, so the counters of idle clients vanish by themselves). A change is
counted against its token when the token is valid for the game (a made-up token answers 401 and counts nowhere,
so it cannot buy a fresh budget), else against the client's address; a creation always against the address (no
token belongs to a game not yet made). An address's budget is ``tg:rate:{<budget>:<client>}``, on a Redis
Cluster slot of its own, charged by a script of its own; a token's is ``tg:{<game_id>}:rate:<digest>``, on its
game's slot (a token belongs to one game), charged by the script that loads the game when the token is the
game's: a change by a player costs no Redis call for its limits.

The cap counts live lobbies and games in one sorted set, ``tg:{live}``: game id -> expiry time (ms), refreshed
by the writes of a game and removed by its deletion, so an entry expires with its game. A write that would move
the expiry by less than 1% of the game's TTL (e.g. the next play a second later) leaves the entry as it is: most
changes then cost no Redis call for their limits, and an entry may expire that much before its game.
Creating counts the entries not yet expired and prunes a few expired ones; the count and the creation are two
steps, so concurrent creations may pass the cap by as many as run at once.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis
from flask import Flask, current_app, g, request

from .auth import MALFORMED
from .errors import ApiError
from .gcra import GCRA_FUNCTION
from .store import Charge, GameStore

log = logging.getLogger(__name__)

#: KEYS[1] a client's bucket; ARGV[1] now, ARGV[2] the interval between requests at the sustained rate (both
#: ms), ARGV[3] the burst. Answers 0 if the request may go (and counts it), else the ms to wait.
GCRA = GCRA_FUNCTION + "return gcra(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))"

#: KEYS[1] the live games; ARGV[1] now (ms), ARGV[2] the cap. Prunes up to 100 expired entries (more than a
#: creation adds, so the set stays near the live count). Answers 0 if fewer than the cap are live, else the ms
#: until the first live one expires.
ADMIT = """
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
if #expired > 0 then redis.call('ZREM', KEYS[1], unpack(expired)) end
local live = '(' .. ARGV[1]
if redis.call('ZCOUNT', KEYS[1], live, '+inf') < tonumber(ARGV[2]) then return 0 end
local first = redis.call('ZRANGEBYSCORE', KEYS[1], live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
return tonumber(first[2]) - tonumber(ARGV[1])
"""

#: The longest ``Retry-After`` of a full service: a closed lobby or a finished game may free room sooner.
CAPACITY_RETRY_SECONDS = 60
#: A game's entry is rewritten when its expiry moves by more than 1 / RENEWAL_STEP of its TTL (in either direction).
RENEWAL_STEP = 100
#: The most game entries a process remembers having written (then it forgets them all and starts again).
RENEWALS_KEPT = 10_000


@dataclass(frozen=True)
class Budget:
    """Up to ``burst`` requests at once, then ``burst`` per ``seconds`` (one every ``seconds / burst``)."""

    name: str
    burst: int
    seconds: int

    @property
    def interval_ms(self) -> int:
        return max(1, self.seconds * 1000 // self.burst)


def refuse_if_spent(budget: Budget, wait_ms: int) -> None:
    """``429 rate_limited`` if a charge of ``budget`` answered a wait."""
    if wait_ms > 0:
        seconds = _seconds(wait_ms)
        raise ApiError(
            "rate_limited",
            f"too many {budget.name} requests from this client; retry in {seconds} s",
            retry_after=seconds,
        )


def _seconds(ms: int) -> int:
    """``Retry-After``: whole seconds, at least 1."""
    return max(1, math.ceil(ms / 1000))


def client_address(remote_addr: str | None, forwarded: str | None) -> str:
    """The client's address: the rightmost of ``forwarded`` (the hop the trusted proxy added) if it is one, else
    ``remote_addr``; an IPv6 client by its /64 (one subscriber's whole prefix), IPv4-mapped as IPv4."""
    for text in ((forwarded or "").rsplit(",", 1)[-1].strip(), remote_addr or ""):
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            continue
        if isinstance(ip, ipaddress.IPv6Address):
            if ip.ipv4_mapped is not None:
                return str(ip.ipv4_mapped)
            return str(ipaddress.IPv6Network((ip, 64), strict=False))
        return str(ip)
    return "unknown"


class Limits:
    """The budgets and the cap over one Redis (or Redis Cluster) client; ``clock`` gives seconds (tests inject one)."""

    def __init__(
        self,
        client: redis.Redis | redis.RedisCluster,
        budgets: tuple[Budget, Budget],
        max_games: int,
        proxy_header: str | None,
        prefix: str = "tg:",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.create, self.change = budgets
        self.max_games = max_games
        self.proxy_header = proxy_header
        self.prefix = prefix
        self.clock = clock
        self.live_key = f"{prefix}{{live}}"
        self.renewed: dict[str, int] = {}  # game id -> the expiry (ms) this process last wrote in the live set
        self.gcra = client.register_script(GCRA)
        self.admit = client.register_script(ADMIT)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def address(self) -> str:
        forwarded = request.headers.get(self.proxy_header) if self.proxy_header else None
        return client_address(request.remote_addr, forwarded)

    def charge(self, budget: Budget, client: str) -> None:
        """Count one request of ``client`` against ``budget``; ``429 rate_limited`` if it is spent."""
        key = f"{self.prefix}rate:{{{budget.name}:{client}}}"
        refuse_if_spent(budget, int(self.gcra(keys=[key], args=[self.now_ms(), budget.interval_ms, budget.burst])))

    def creation(self) -> None:
        """A creation: the address's budget, then the cap (``503 capacity`` when it is reached)."""
        self.charge(self.create, f"a:{self.address()}")
        if self.max_games:
            wait = int(self.admit(keys=[self.live_key], args=[self.now_ms(), self.max_games]))
            if wait > 0:
                message = "the service holds as many games as it may; retry later"
                raise ApiError("capacity", message, retry_after=min(_seconds(wait), CAPACITY_RETRY_SECONDS))

    def changing(self, charged_token: bool, wait_ms: int) -> None:
        """A change, once the caller is known: a valid token's budget was charged by the game's load (``wait_ms``
        its answer); a caller without a token is counted by address, once per request (the store may compute a
        change several times)."""
        if charged_token:
            refuse_if_spent(self.change, wait_ms)
        elif not g.get("thegame_limits_charged"):
            g.thegame_limits_charged = True
            self.charge(self.change, f"a:{self.address()}")

    def written(self, game_id: str, ttl: int) -> None:
        """The store wrote ``game_id`` with ``ttl`` seconds to live (0: deleted it). The count is an estimate:
        a failure here is logged, not answered (the change itself is stored)."""
        expiry, last = self.now_ms() + ttl * 1000, self.renewed.get(game_id)
        if ttl and last is not None and 0 <= expiry - last <= ttl * 1000 // RENEWAL_STEP:
            return
        if len(self.renewed) >= RENEWALS_KEPT:
            self.renewed.clear()
        try:
            if ttl:
                self.client.zadd(self.live_key, {game_id: expiry})
                self.renewed[game_id] = expiry
            else:
                self.renewed.pop(game_id, None)
                self.client.zrem(self.live_key, game_id)
        except redis.RedisError as error:
            log.warning("live games not counted: %s", type(error).__name__)


def install(app: Flask, store: GameStore) -> None:
    """Limits as configured: on unless ``TG_LIMITS`` is off, or unset in an app built for tests (``TESTING``).
    Tests may set ``LIMITS_PREFIX`` (their own keys for address budgets and the cap; a token's budget is always on its
    game's slot, ``tg:{<game_id>}:rate:...``) and ``LIMITS_CLOCK``."""
    config = app.config
    if not (config["LIMITS"] if config["LIMITS"] is not None else not config.get("TESTING")):
        return
    budgets = (Budget("create", *config["CREATE_RATE"]), Budget("change", *config["CHANGE_RATE"]))
    prefix, clock = config.get("LIMITS_PREFIX", "tg:"), config.get("LIMITS_CLOCK", time.time)
    limits = Limits(store.client, budgets, config["MAX_GAMES"], config["TRUSTED_PROXY_HEADER"], prefix, clock)
    app.extensions["thegame_limits"] = limits
    if limits.max_games:
        store.on_write = limits.written


def _limits() -> Limits | None:
    return current_app.extensions.get("thegame_limits")


def admit_creation() -> None:
    """Before creating a game: ``429 rate_limited`` or ``503 capacity`` when limits are on."""
    limits = _limits()
    if limits is not None:
        limits.creation()


def token_charge(digest: str | None) -> Charge | None:
    """The change budget of the caller's token, for the store to charge as it loads the game (it charges only a
    token of that game); ``None`` when limits are off or the caller sent no token (or no bearer token)."""
    limits = _limits()
    if limits is None or digest is None or digest == MALFORMED:
        return None
    budget = limits.change
    return Charge(digest, limits.now_ms(), budget.interval_ms, budget.burst)


def charge_change(charged_token: bool, wait_ms: int) -> None:
    """Once the caller is known (``charged_token``: its valid token, charged by the load, which answered
    ``wait_ms``): ``429 rate_limited`` when limits are on and its change budget is spent."""
    limits = _limits()
    if limits is not None:
        limits.changing(charged_token, wait_ms)
