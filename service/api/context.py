"""What a route hands to the layers below: the process's runtime, the request read into plain values, the caller's
budget, and the write path's and read path's entry points."""

from __future__ import annotations

import re
from dataclasses import replace

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
from ..players import keys
from ..ratings.finished import outcome_ratings
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
    """The request's parts for a game route; an id that cannot exist is an unknown game. A player key is checked
    here (one read on its player's slot) and answered at the token's place in the checks: an unknown or revoked key
    names no player, so its digest matches nothing and the game answers ``401`` as for a wrong token."""
    if not GAME_ID.fullmatch(game_id):
        raise ApiError("unknown_game", "no such game")
    service = runtime()
    parts = read_incoming(game_id, service.now(), address())
    key = player_key()
    if key is not None:
        checked = service.players.accounts.resolve(key, now_ms())
        if checked is not None:
            parts = replace(parts, player=checked.player)
    return parts


def now_ms() -> int:
    return int(runtime().now() * 1000)


def player_key() -> str | None:
    """The request's bearer token when it has a player key's shape."""
    token = bearer_token()
    return token if keys.looks_like_key(token) else None


def checked_player(required: bool = True) -> keys.ParsedKey | None:
    """The player whose key the request sends, checked: ``401 invalid_token`` for an unknown or revoked key, or
    without one when ``required``."""
    key = player_key()
    if key is None:
        if required:
            raise ApiError("invalid_token", "this request needs a player key: 'Authorization: Bearer <player key>'")
        return None
    checked = runtime().players.accounts.resolve(key, now_ms())
    if checked is None:
        raise ApiError("invalid_token", "the player key is unknown or revoked")
    return checked


def seat_token(parts: Incoming) -> str | None:
    """The token a seat's view opens its sealed rematch token with: a seat token's own, never a player key's (its
    player's seat in the rematch is bound to it already)."""
    return None if parts.player is not None else bearer_token()


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


def change_budget(holder: str | None) -> ChangeBudget | None:
    """The caller's change budget when limits are on: its seat's or the host's, charged by the store as it loads
    the game (a token of that game, or the player of a seat's key), else its address's."""
    limits = runtime().limits
    if limits is None:
        return None
    token = None
    if holder is not None and holder != MALFORMED:
        token = Charge(holder, limits.now_ms(), limits.change.interval_ms, limits.change.burst)
    return ChangeBudget(limits, address(), token)


def change(parts: Incoming, role: TokenRole | None, step: Step, needs_token: str | None = None) -> Response:
    """Run a change through the write path (``needs_token``: its 401's message without a token), then render its
    answer once."""
    answer, record = changes.change(writer(), parts, change_budget(parts.budget_holder), role, step, needs_token)
    if parts.player is not None and answer.kind == "seat":  # a seat taken with a player key is bound to it
        runtime().players.index.bound(parts.game_id, record, [parts.player])
    ratings = outcome_ratings(runtime().ratings, parts.game_id, record)
    return reply(render(parts.game_id, record, answer, seat_token(parts), parts.now, ratings))


def _daily_open(record: GameRecord, now: float) -> bool:
    """A daily game is open to anyone once its day is over (its leaderboard then links it)."""
    return record.daily is not None and days.over(record.daily, now)


def open_to_anyone(record: GameRecord, now: float) -> bool:
    """Whether anyone may read the game without a token: it has spectators, or it is a daily deal whose day is
    over."""
    return record.spectators or _daily_open(record, now)


def current(game_id: str, parts: Incoming | None = None) -> tuple[GameRecord, Viewer]:
    """For reads: the game's record, with what fell due applied (``ClockRunner.settle``), and who reads it;
    `403 forbidden` without a seat or host token when the game was created with `"spectators": false` (a daily
    game: until its day is over). ``parts``: the request, if read already."""
    parts = parts or incoming(game_id)
    service = runtime()
    record = service.runner.settle(service.store.load(game_id).record(), game_id, parts.now)
    caller = changes.who_is_calling(record, parts, None)
    if caller.role == "anyone" and not open_to_anyone(record, parts.now):
        raise ApiError("forbidden", "this game has no spectators: send a seat token or the host token")
    return record, Viewer(caller.seat, seat_token(parts), parts.now)


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
