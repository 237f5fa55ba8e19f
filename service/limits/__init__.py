"""Per-client rate limits and a cap on live games, so that no client can flood the store (docs/api.md "Limits").

Rate limits use GCRA (``storage/lua/gcra.lua``: a token bucket kept as one timestamp, the time at which the client's
bucket is full again, in a key that expires then, so the counters of idle clients vanish by themselves). A change is
counted against its token when the token is valid for the game (a made-up token answers 401 and counts nowhere,
so it cannot buy a fresh budget), else against the client's address; a creation always against the address (no
token belongs to a game not yet made). An address's budget is ``tg:rate:{<budget>:<client>}``, on a Redis
Cluster slot of its own, charged by a script of its own; a token's is the field of its place (``host``, ``seat:<n>``) in
``tg:{<game_id>}:rate``, on its game's slot (a token belongs to one game), charged by the script that loads the
game when the token is the game's: a change by a player costs no Redis call for its limits, and a seat freed and
taken again with a fresh token keeps the budget it spent.

The cap counts live lobbies and games in one sorted set, ``tg:{live}``: game id -> expiry time (ms), refreshed
by the writes of a game and removed by its deletion, so an entry expires with its game. A write that would move
the expiry by less than 1% of the game's TTL (e.g. the next play a second later) leaves the entry as it is: most
changes then cost no Redis call for their limits, and an entry may expire that much before its game.
Creating counts the entries not yet expired and prunes a few expired ones; the count and the creation are two
steps, so concurrent creations may pass the cap by as many as run at once.

Open event streams are capped per address and per token (``streams.py``).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis

from ..errors import ApiError
from ..storage.scripts import lua
from ..storage.store import Charge
from .streams import StreamSlots

log = logging.getLogger(__name__)

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
    """The budgets and the caps over one Redis (or Redis Cluster) client; ``clock`` gives seconds (tests inject one)."""

    def __init__(
        self,
        client: redis.Redis | redis.RedisCluster,
        budgets: tuple[Budget, ...],
        max_games: int,
        prefix: str = "tg:",
        clock: Callable[[], float] = time.time,
        streams: StreamSlots | None = None,
    ) -> None:
        self.client = client
        self.streams = streams  # None: no cap on event streams
        # the lobby list's reads are the only reads limited; an analysis is limited when a read starts one
        self.create, self.change, self.listing, self.analysis = budgets
        self.max_games = max_games
        self.prefix = prefix
        self.clock = clock
        self.live_key = f"{prefix}{{live}}"
        self.renewed: dict[str, int] = {}  # game id -> the expiry (ms) this process last wrote in the live set
        self.gcra = client.register_script(lua("gcra", "charge"))
        self.admit = client.register_script(lua("admit"))

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def charge(self, budget: Budget, client: str) -> None:
        """Count one request of ``client`` against ``budget``; ``429 rate_limited`` if it is spent."""
        key = f"{self.prefix}rate:{{{budget.name}:{client}}}"
        refuse_if_spent(budget, int(self.gcra(keys=[key], args=[self.now_ms(), budget.interval_ms, budget.burst])))

    def creation(self, address: str) -> None:
        """A creation from ``address``: its budget, then the cap (``503 capacity`` when it is reached)."""
        self.charge(self.create, f"a:{address}")
        if self.max_games:
            wait = int(self.admit(keys=[self.live_key], args=[self.now_ms(), self.max_games]))
            if wait > 0:
                message = "the service holds as many games as it may; retry later"
                raise ApiError("capacity", message, retry_after=min(_seconds(wait), CAPACITY_RETRY_SECONDS))

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


@dataclass
class ChangeBudget:
    """One change request's budgets: its token's, charged by the store as it loads the game (``token``), or, for a
    caller without a valid token, its address's, charged once per request (the store may compute a change several
    times)."""

    limits: Limits
    address: str
    token: Charge | None
    address_charged: bool = False

    def charge(self, charged_token: bool, wait_ms: int) -> None:
        """Once the caller is known (``charged_token``: its valid token, charged by the load, which answered
        ``wait_ms``): ``429 rate_limited`` when its change budget is spent."""
        if charged_token:
            refuse_if_spent(self.limits.change, wait_ms)
        elif not self.address_charged:
            self.address_charged = True
            self.limits.charge(self.limits.change, f"a:{self.address}")
