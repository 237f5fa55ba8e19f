"""Games: the catalog, create a lobby, read the view (public or seat), start, close."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from flask import Response, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg

from ..clock.options import OPTIONS, split_options
from ..daily import days
from ..daily.creation import daily_record
from ..errors import ApiError
from ..http.reading import parse_json
from ..http.replies import read_reply, reply
from ..play import changes, commands, tokens
from ..play.incoming import Incoming, validate
from ..play.presenters import Reply, Viewer, game_view
from ..ratings import rated
from ..ratings.finished import outcome_ratings
from ..records.game_record import GameRecord
from ..storage.lobby_index import DEFAULT_LIMIT, MAX_LIMIT
from .catalog_schemas import CatalogSchema
from .context import admit_creation, admit_listing, change, checked_player, current, host_of, incoming, runtime, writer
from .documented import BEARER, OPTIONAL_BEARER, VIEW, documented
from .lobby_schemas import (
    CURSOR_DOC,
    CreateGameSchema,
    GameCreatedSchema,
    LobbyListSchema,
    LobbyQuerySchema,
    RematchSchema,
    StartRequestSchema,
)
from .schemas import GAME_DOC

blp = Blueprint(
    "games", __name__, url_prefix="/v1/games", description="The catalog; create, list, read and start games"
)

# Request schemas are built once: loading with a shared instance is safe, and building one costs.
CREATE_GAME = CreateGameSchema()
START_REQUEST = StartRequestSchema()
LOBBY_QUERY = LobbyQuerySchema()
ID_ATTEMPTS = 3
LOBBY_PARAMETERS = [
    {"in": "query", "name": "status", "schema": {"type": "string", "enum": ["lobby"], "default": "lobby"}},
    {"in": "query", "name": "game", "schema": GAME_DOC, "description": "only this game of the catalog"},
    {
        "in": "query",
        "name": "cursor",
        "schema": CURSOR_DOC,
        "description": "the previous page's `next`",
    },
    {
        "in": "query",
        "name": "limit",
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
    },
]

#: The body: ``seed`` and ``deck`` exclude each other.
CREATE_BODY = {"allOf": [CreateGameSchema], "not": {"required": ["seed", "deck"]}}


def _new_record(body: dict[str, Any], host_token: str, created_at: int) -> GameRecord:
    """The lobby for a validated body; the core checks the players, options and deck (422 if it refuses them)."""
    game, players, deck = body["game"], body["players"], body.get("deck")
    if body["rated"] and not rated(game):
        raise ApiError("game_not_rated", f"{game} is never rated: games played together are not ranked")
    seed = body.get("seed", secrets.randbits(63))  # without one, a secret seed (it also draws the first seat)
    wanted, timed = split_options(body["options"])
    try:
        probe = tg.new_game(game, players, seed=None if deck is not None else seed, deck=deck, options=wanted)
    except tg.GameError as error:
        raise ApiError("validation_error", error.message, {"_schema": [error.message]}) from None
    options = probe.options.to_dict()
    return GameRecord(
        game,
        players,
        options,
        seed,
        tokens.token_hash(host_token),
        deck,
        seats=(None,) * players,
        turn_seconds=timed["turn_seconds"],
        bots_alone_ms=runtime().settings.bots_alone_ms,
        idle_turns=timed["idle_turns"],
        public=body["public"],
        spectators=body["spectators"],
        created_at=created_at,
        rated=body["rated"],
    )


def _daily_record(
    body: dict[str, Any], host_token: str, seat_token: str, now: float, player: str | None
) -> tuple[GameRecord, int]:
    """A game on a day's deal (``service/daily``): ``422 daily_in_future`` for a day not yet begun."""
    day = days.requested(body["daily"], now)
    daily, bots_alone_ms = runtime().daily, runtime().settings.bots_alone_ms
    return daily_record(body, day, host_token, seat_token, now, daily.secret.get(), bots_alone_ms, player)


@blp.route("")
class Games(MethodView):
    @blp.response(201, GameCreatedSchema)
    @documented(
        blp,
        "create_game",
        "rate_limited",
        "capacity",
        "malformed_json",
        "validation_error",
        "daily_in_future",
        "game_not_rated",
        "body_too_large",
        body=CREATE_BODY,
        security=[],
    )
    def post(self) -> Response:
        """Create a lobby; the answer holds the host token, shown only this once. With `daily` (and `name`), a game
        on that day's deal instead, started at once against bots: the answer is the player's seat view with its
        token (docs/api.md, "Daily deals")."""
        admit_creation()
        checked = checked_player(required=False)
        body = validate(CREATE_GAME, parse_json(request.get_data(cache=True)))
        host_token, now = tokens.new_token(), runtime().now()
        seat, seat_token = None, None
        if "daily" in body:
            seat_token = tokens.new_token()
            player = None if checked is None else checked.player
            record, seat = _daily_record(body, host_token, seat_token, now, player)
        else:
            record = _new_record(body, host_token, _now_ms())
        for _ in range(ID_ATTEMPTS):
            game_id = tokens.new_game_id()
            written = changes.create(writer(), game_id, record)
            if written is not None:
                runtime().players.index.bound(game_id, written, written.players_bound())
                view = {**game_view(game_id, written, Viewer(seat, seat_token, now)), "host_token": host_token}
                if seat is not None:
                    view.update(seat=seat, token=seat_token)
                response = reply(Reply(201, view, written.tag()))
                response.headers["Location"] = f"/v1/games/{game_id}"
                return response
        raise ApiError("store_busy", "could not allocate a game id; retry")

    @blp.response(200, LobbyListSchema)
    @documented(blp, "list_lobbies", "rate_limited", "validation_error", security=[], parameters=LOBBY_PARAMETERS)
    def get(self) -> Response:
        """Open public lobbies (created with `"public": true`, not started, a seat free), newest first, `limit`
        per page (default 20, at most 100). Pass `next` back as `cursor` for the following page: lobbies
        created meanwhile never shift it. A page may hold fewer than `limit` lobbies while `next` is not null."""
        admit_listing()
        query = validate(LOBBY_QUERY, request.args.to_dict())
        listed, cursor = runtime().lobbies.page(query.get("game"), query.get("cursor"), query["limit"])
        return jsonify({"games": [listed_lobby(lobby.game_id, lobby.record) for lobby in listed], "next": cursor})


@blp.route("/catalog")
class Catalog(MethodView):
    @blp.response(200, CatalogSchema)
    @documented(blp, "get_catalog", security=[])
    def get(self) -> Response:
        """Every game served: players, options (type, default, allowed values; the game's own, then the clock's
        `turn_seconds` and `idle_turns`), presets, actions and their fields, bots, rule error codes and end
        reasons, so a client needs no game hard-coded."""
        return jsonify(catalog())


def _now_ms() -> int:
    return int(runtime().now() * 1000)


def listed_lobby(game_id: str, record: GameRecord) -> dict[str, Any]:
    created = datetime.fromtimestamp(record.created_at / 1000, UTC).isoformat(timespec="milliseconds")
    return {
        "game_id": game_id,
        "game": record.game,
        "players": record.players,
        "free_seats": record.free_seats,
        "options": record.options,
        "rated": record.rated,
        "created_at": created.replace("+00:00", "Z"),
    }


def catalog() -> dict[str, Any]:
    games = []
    for name in tg.game_names():
        game = tg.get_game(name)
        entry = game.info.to_dict()
        entry["options"] += [option.to_dict() for option in OPTIONS]
        games.append({**entry, "bots": sorted(game.bots), "rated": rated(name)})
    return {"games": games}


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.response(200, VIEW)
    @documented(blp, "get_game", "unknown_game", "invalid_token", "forbidden", security=OPTIONAL_BEARER, reads=True)
    def get(self, game_id: str) -> Response:
        """The view for the caller: a seat token sees its hand; no token (or the host's) the public view, `403`
        without a token when the game has no spectators. `ETag` is the version; `If-None-Match` with it answers
        `304`."""
        record, viewer = current(game_id)
        ratings = outcome_ratings(runtime().ratings, game_id, record)
        return read_reply(game_view(game_id, record, viewer, ratings=ratings), record.tag())

    @blp.response(204)
    @documented(
        blp,
        "close_lobby",
        "unknown_game",
        "invalid_token",
        "forbidden",
        "game_started",
        "stale_version",
        security=BEARER,
        changes=True,
    )
    def delete(self, game_id: str) -> Response:
        """Host only: close a lobby that has not started; the game is deleted."""
        parts = incoming(game_id)
        return change(parts, "host", commands.close(parts))


@blp.route("/<game_id>/start")
class Start(MethodView):
    @blp.response(200, VIEW)
    @documented(
        blp,
        "start_game",
        "unknown_game",
        "invalid_token",
        "forbidden",
        "game_started",
        "seats_free",
        "stale_version",
        "malformed_json",
        "validation_error",
        "idempotency_key_reused",
        body=StartRequestSchema,
        security=BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """Host only: deal and start once every seat is taken; answers the public view."""
        parts = incoming(game_id)
        return change(parts, "host", commands.start(parts, START_REQUEST))


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    @blp.response(201, RematchSchema)
    @documented(
        blp,
        "rematch",
        "unknown_game",
        "invalid_token",
        "forbidden",
        "game_not_started",
        "game_not_over",
        "rematch_exists",
        "stale_version",
        "idempotency_key_reused",
        "capacity",
        security=BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """Host only, once the game is over: the next game, with the same game, options, players, names, bots,
        `public` and `spectators`, a fresh seed and fresh tokens. It starts at once when every seat is held;
        a seat left open during play is free in it. The answer holds the new game's id and host token (shown
        once); each seat finds its new token in its own view of this game (`rematch`)."""
        parts = incoming(game_id)
        finished = host_of(parts)  # 404, 401, 403 first: refused so, a rematch spends no creation
        admit_creation()
        plan = commands.Rematch()
        plan.draw(finished, _now_ms())
        response = _named_rematch(parts, plan)
        response.headers["Location"] = f"/v1/games/{response.get_json()['game_id']}"
        return response


def _named_rematch(parts: Incoming, plan: commands.Rematch) -> Response:
    """The finished game names ``plan``'s game, stored first and listed only then: the other order would let a
    reader follow the rematch to a game not yet stored, or a stranger join a listed game then deleted. A request
    that could not name its game (refused, or beaten by another rematch) deletes it."""
    new = plan.record
    if new is None:  # nothing to store: the step refuses
        return change(parts, "host", commands.rematch(parts, plan))
    if changes.create(writer(), plan.game_id, new, listed=False) is None:
        raise ApiError("store_busy", "could not write the new game; retry")  # an id drawn twice: not seen
    try:
        response = change(parts, "host", commands.rematch(parts, plan))
    except ApiError:
        changes.discard(writer(), plan.game_id)
        raise
    if response.get_json()["game_id"] == plan.game_id:
        changes.list_new(writer(), plan.game_id, new)
        runtime().players.index.bound(plan.game_id, new, new.players_bound())
    else:  # a retry's recalled answer, naming the game of the request it repeats
        changes.discard(writer(), plan.game_id)
    return response
