"""Games: the catalog, create a lobby, read the view (public or seat), start, close."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Response, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg

from .. import auth, clock, commands
from ..errors import ApiError
from ..game_record import GameRecord
from ..incoming import parse_json, validate
from ..limits import admit_creation
from ..presenters import Reply, game_view
from .common import BEARER, OPTIONAL_BEARER, VIEW, current, documented, incoming, read_reply, reply, store
from .schemas import CatalogSchema, CreateGameSchema, GameCreatedSchema, StartRequestSchema

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="The catalog; create, read and start games")

# Request schemas are built once: loading with a shared instance is safe, and building one costs.
CREATE_GAME = CreateGameSchema()
START_REQUEST = StartRequestSchema()
ID_ATTEMPTS = 3
#: The body: ``seed`` and ``deck`` exclude each other.
CREATE_BODY = {"allOf": [CreateGameSchema], "not": {"required": ["seed", "deck"]}}


def _new_record(body: dict[str, Any], host_token: str) -> GameRecord:
    """The lobby for a validated body; the core checks the players, options and deck (422 if it refuses them)."""
    game, players, deck = body["game"], body["players"], body.get("deck")
    seed = body.get("seed", secrets.randbits(63))  # without one, a secret seed (it also draws the first seat)
    wanted, timed = clock.split_options(body["options"])
    try:
        probe = tg.new_game(game, players, seed=None if deck is not None else seed, deck=deck, options=wanted)
    except tg.GameError as error:
        raise ApiError("validation_error", error.message, {"_schema": [error.message]}) from None
    options = probe.options.to_dict()
    seats = (None,) * players
    host = auth.token_hash(host_token)
    return GameRecord(game, players, options, seed, host, deck, 0, seats, timed["turn_seconds"], timed["idle_turns"])


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
        "body_too_large",
        body=CREATE_BODY,
        security=[],
    )
    def post(self) -> Response:
        """Create a lobby; the answer holds the host token, shown only this once."""
        admit_creation()
        body = validate(CREATE_GAME, parse_json(request.get_data(cache=True)))
        host_token = auth.new_token()
        record = _new_record(body, host_token)
        for _ in range(ID_ATTEMPTS):
            game_id = secrets.token_urlsafe(12)
            if store().create(game_id, record.fields(), commands.ttl_for(record)):
                view = {**game_view(game_id, record, None), "host_token": host_token}
                response = reply(Reply(201, view, record.version))
                response.headers["Location"] = f"/v1/games/{game_id}"
                return response
        raise ApiError("store_busy", "could not allocate a game id; retry")


@blp.route("/catalog")
class Catalog(MethodView):
    @blp.response(200, CatalogSchema)
    @documented(blp, "get_catalog", security=[])
    def get(self) -> Response:
        """Every game served: players, options (type, default, allowed values; the game's own, then the clock's
        `turn_seconds` and `idle_turns`), presets, actions and their fields, bots, rule error codes and end
        reasons, so a client needs no game hard-coded."""
        return jsonify(catalog())


def catalog() -> dict[str, Any]:
    games = []
    for name in tg.game_names():
        game = tg.get_game(name)
        entry = game.info.to_dict()
        entry["options"] += [option.to_dict() for option in clock.OPTIONS]
        games.append({**entry, "bots": sorted(game.bots)})
    return {"games": games}


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.response(200, VIEW)
    @documented(blp, "get_game", "unknown_game", "invalid_token", security=OPTIONAL_BEARER, reads=True)
    def get(self, game_id: str) -> Response:
        """The view for the caller: a seat token sees its hand; no token (or the host's) the public view.
        `ETag` is the version; `If-None-Match` with it answers `304`."""
        record, seat = current(game_id)
        return read_reply(game_view(game_id, record, seat), record.version)

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
        return reply(commands.change(store(), parts, "host", commands.close(parts)))


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
        return reply(commands.change(store(), parts, "host", commands.start(parts, START_REQUEST)))
