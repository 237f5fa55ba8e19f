"""The cap on event streams per client (``TG_STREAMS_PER_CLIENT``, docs/api.md "Limits"): an open stream holds a
greenlet, a socket and its kernel buffers, so one client holding thousands starved every other one.

A stream holds a slot in its address's set (``tg:streams:{a:<address>}``) and, with a token, in its token's
(``tg:streams:{t:<digest>}``): sorted sets of stream id -> expiry (ms), shared by every process through Redis, each
on a Redis Cluster slot of its own. The slots are leases: the stream renews them as it writes (a keep-alive at
least every ``TG_STREAM_KEEPALIVE`` seconds), and gives them back when it ends; a process that dies without giving
them back leaves them to expire within a lease, so no slot leaks for good.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Generator, Iterator

import redis

from ..errors import ApiError
from ..storage.scripts import lua

log = logging.getLogger(__name__)

#: The shortest lease of a slot (seconds); renewed once half of it has passed, when the stream next writes.
LEASE_SECONDS = 120


class StreamSlots:
    """At most ``cap`` open streams per address and per token, across processes; ``clock`` gives seconds."""

    def __init__(
        self,
        client: redis.Redis | redis.RedisCluster,
        prefix: str,
        cap: int,
        keepalive: float,
        clock: Callable[[], float],
    ) -> None:
        self.client = client
        self.prefix = prefix
        self.cap = cap
        self.keepalive = keepalive
        self.lease_ms = int(max(LEASE_SECONDS, 3 * keepalive) * 1000)  # several keep-alives renew it in time
        self.clock = clock
        self.script = client.register_script(lua("stream_slot"))

    def take(self, address: str, digest: str | None) -> Slot:
        """The slots of a new stream from ``address`` (with the token of ``digest``, if any): ``429
        too_many_streams`` when either already holds ``cap`` streams."""
        slot = Slot(self, secrets.token_hex(8), [f"a:{address}"] + ([] if digest is None else [f"t:{digest}"]))
        for held, client in enumerate(slot.clients):
            if not slot.hold(client, self.cap):
                slot.clients = slot.clients[:held]
                slot.release()
                who = "address" if client.startswith("a:") else "token"
                raise ApiError(
                    "too_many_streams",
                    f"this {who} holds {self.cap} open event streams already: close one first",
                    retry_after=max(1, int(self.keepalive)),  # a stream whose reader left notices at its keep-alive
                )
        return slot

    def key(self, client: str) -> str:
        return f"{self.prefix}streams:{{{client}}}"

    def now_ms(self) -> int:
        return int(self.clock() * 1000)


class Slot:
    """One stream's slots (``clients``: the address's, the token's); ``renew`` as it writes, ``release`` at its end."""

    def __init__(self, slots: StreamSlots, stream_id: str, clients: list[str]) -> None:
        self.slots = slots
        self.stream_id = stream_id
        self.clients = clients
        self.renew_at = 0

    def hold(self, client: str, cap: int) -> bool:
        """Take (``cap``) or renew (``cap`` 0) the slot of ``client``; ``False`` when refused."""
        now = self.slots.now_ms()
        self.renew_at = now + self.slots.lease_ms // 2
        args: list[int | str] = [now, cap, self.stream_id, now + self.slots.lease_ms]
        return bool(self.slots.script(keys=[self.slots.key(client)], args=args))

    def holding(self, body: Generator[bytes, None, None]) -> Iterator[bytes]:
        """``body``, renewing the slots whenever it goes on after half a lease. A renewal that fails is logged: the
        stream goes on, and its slots may expire before it ends (the cap is then loose, never tight)."""
        try:
            for chunk in body:
                if self.slots.now_ms() >= self.renew_at:
                    self.renew()
                yield chunk
        finally:
            body.close()

    def renew(self) -> None:
        try:
            for client in self.clients:
                self.hold(client, 0)
        except redis.RedisError as error:
            log.warning("event stream slots not renewed: %s", type(error).__name__)

    def release(self) -> None:
        """Give the slots back (a failure leaves them to expire)."""
        try:
            for client in self.clients:
                self.slots.client.zrem(self.slots.key(client), self.stream_id)
        except redis.RedisError as error:
            log.warning("event stream slots not given back: %s", type(error).__name__)
