"""What a route hands to the layers below: the process's runtime, the request read into plain values, the caller's
budget, and the write path's and read path's entry points."""

from __future__ import annotations

import re

from flask import Response, current_app, request

import thegame_core as tg

from ..daily import days
from ..errors import ApiError
from ..http.reading import bearer_token, read_incoming
from ..http.replies import reply
from ..limits import ChangeBudget, client_address
from ..play import changes
from ..play.commands import Step
from ..play.incoming import Incoming
from ..play.presenters import Viewer, render
from ..play.tokens import MALFORMED, TokenRole
from ..records.game_record import GameRecord
from ..runtime import Runtime
from ..storage.store import Charge

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def runtime() -> Runtime:
    return current_app.extensions["service"]  # type: ignore[no-any-return]


def writer() -> changes.Writer:
    service = runtime()
    return changes.Writer(service.store, service.lobbies, service.settings)


def incoming(game_id: str) -> Incoming:
    """The request's parts for a game route; an id that cannot exist is an unknown game."""
    if not GAME_ID.fullmatch(game_id):
        raise ApiError("unknown_game", "no such game")
    return read_incoming(game_id, runtime().now(), address())


def address() -> str:
    """The client's address: the trusted proxy's header (``TG_TRUSTED_PROXY_HEADER``) if set, else the peer's."""
    header = current_app.config["TRUSTED_PROXY_HEADER"]
    return client_address(request.remote_addr, request.headers.get(header) if header else None)


def admit_creation() -> None:
    """Before creating a game: ``429 rate_limited`` or ``503 capacity`` when limits are on."""
    limits = runtime().limits
    if limits is not None:
        limits.creation(address())


def admit_listing() -> None:
    """Before a page of the lobby list (it reads many games): ``429 rate_limited`` when limits are on."""
    limits = runtime().limits
    if limits is not None:
        limits.charge(limits.listing, f"a:{address()}")


def admit_analysis() -> None:
    """Before starting a game's analysis (it costs seconds to minutes of CPU): ``429 rate_limited`` when limits are
    on."""
    limits = runtime().limits
    if limits is not None:
        limits.charge(limits.analysis, f"a:{address()}")


def host_of(parts: Incoming) -> GameRecord:
    """The game as read before the write path runs: it exists (``404``) and the token is its host's
    (``401``/``403``)."""
    record = runtime().store.load(parts.game_id).record()
    changes.who_is_calling(record, parts, "host")
    return record


def change_budget(digest: str | None) -> ChangeBudget | None:
    """The caller's change budget when limits are on: its token's, charged by the store as it loads the game (a
    token of that game only), else its address's."""
    limits = runtime().limits
    if limits is None:
        return None
    token = None
    if digest is not None and digest != MALFORMED:
        token = Charge(digest, limits.now_ms(), limits.change.interval_ms, limits.change.burst)
    return ChangeBudget(limits, address(), token)


def change(parts: Incoming, role: TokenRole | None, step: Step, needs_token: str | None = None) -> Response:
    """Run a change through the write path (``needs_token``: its 401's message without a token), then render its
    answer once."""
    answer, record = changes.change(writer(), parts, change_budget(parts.digest), role, step, needs_token)
    return reply(render(parts.game_id, record, answer, bearer_token(), parts.now))


def _daily_open(record: GameRecord, now: float) -> bool:
    """A daily game is open to anyone once its day is over (its leaderboard then links it)."""
    return record.daily is not None and days.over(record.daily, now)


def current(game_id: str) -> tuple[GameRecord, Viewer]:
    """For reads: the game's record, with what fell due applied (``ClockRunner.settle``), and who reads it;
    `403 forbidden` without a seat or host token when the game was created with `"spectators": false` (a daily
    game: until its day is over)."""
    parts = incoming(game_id)
    service = runtime()
    record = service.runner.settle(service.store.load(game_id).record(), game_id, parts.now)
    caller = changes.who_is_calling(record, parts, None)
    if caller.role == "anyone" and not record.spectators and not _daily_open(record, parts.now):
        raise ApiError("forbidden", "this game has no spectators: send a seat token or the host token")
    return record, Viewer(caller.seat, bearer_token(), parts.now)


def finished(record: GameRecord, viewer: Viewer) -> tg.AnyState:
    """The state of a game that is over, for what only an ended game shows (its replay, its analysis): ``409
    game_not_over`` while it runs (the deck stays secret), ``409 daily_not_over`` for a daily game before its day is
    over (its lines could be copied)."""
    state = record.state
    if state is None or state.status == "playing":
        raise ApiError("game_not_over", "this opens once the game is over")
    if days.deal_hidden(record.daily, viewer.now):
        raise ApiError("daily_not_over", f"a daily deal stays secret until its day ({record.daily}, UTC) is over")
    return state
