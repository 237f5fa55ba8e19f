"""Players: a key of your own on every device, your games, your record (docs/api.md, "Players").

A player key goes in ``Authorization: Bearer <key>`` like a seat token, and game routes take it where they take
that seat's token (``context.incoming`` checks it; ``tokens.identify`` finds the seat bound to its player). These
routes are the player's own: its profile, keys, link codes and games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from flask import Response, jsonify, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from ..errors import ApiError
from ..http.reading import parse_json
from ..json_text import dump_bytes
from ..play.incoming import validate
from ..players.accounts import Profile
from ..players.erase import erase
from ..players.index import Listed
from ..players.links import VALID_SECONDS
from ..players.views import export_line, exportable, iso_ms, played_game
from ..ratings import rated_games
from ..records.game_record import GameRecord
from .context import address, admit_listing, checked_player, now_ms, open_to_anyone, runtime
from .documented import BEARER, documented
from .player_schemas import (
    GamesQuerySchema,
    KeyListSchema,
    LinkCodeSchema,
    LinkRequestSchema,
    NameSchema,
    PlayedGamesSchema,
    PlayerKeySchema,
    ProfileSchema,
)

F = TypeVar("F", bound=Callable[..., Any])
blp = Blueprint(
    "players", __name__, url_prefix="/v1/players", description="Players: a key on every device, games, profile"
)

NAME_BODY = NameSchema()
LINK_BODY = LinkRequestSchema()
GAMES_QUERY = GamesQuerySchema()
NDJSON = "application/x-ndjson"
PLAYER_PARAMETER = {"in": "path", "name": "player_id", "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{16}$"}}
GAMES_PARAMETERS = [
    {"in": "query", "name": "status", "schema": {"type": "string", "enum": ["live", "finished"]}},
    {"in": "query", "name": "game", "schema": {"type": "string"}, "description": "only this game of the catalog"},
    {"in": "query", "name": "cursor", "schema": {"type": "string"}, "description": "the previous page's `next`"},
    {"in": "query", "name": "limit", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
    {
        "in": "header",
        "name": "Accept",
        "schema": {"type": "string"},
        "description": f"`{NDJSON}`: every kept finished game instead, streamed, one JSON object a line",
    },
]
EXPORT_LINE = {
    "type": "string",
    "description": "one JSON object a line: game_id, game, players, created_at, ended_at, daily, seats (names, bot, "
    "player), outcome, seed_sha256, seed, replay (the replay record: thegame_core.replay rebuilds the game)",
}


PAGE_OR_EXPORT = "a page of games, or with `Accept: application/x-ndjson` the export of every kept finished game"


def games_answers(view: F) -> F:
    """The two answers of a list of games: a page (JSON), or with ``Accept: application/x-ndjson`` the export."""
    exported = blp.alt_response(200, schema=EXPORT_LINE, content_type=NDJSON, description=PAGE_OR_EXPORT)(view)
    return blp.response(200, PlayedGamesSchema, description=PAGE_OR_EXPORT)(exported)  # type: ignore[no-any-return]


def _body(schema: Any) -> dict[str, Any]:
    return validate(schema, parse_json(request.get_data(cache=True)))


def _profile(profile: Profile) -> dict[str, Any]:
    return {
        "player_id": profile.player,
        "name": profile.name,
        "since": iso_ms(profile.since_ms),
        "played": profile.played,
        "ratings": _ratings(profile.player),
        "the_game": {
            str(count): record.to_dict() for count, record in runtime().ratings.the_game.of(profile.player).items()
        },
    }


def _ratings(player: str) -> dict[str, Any]:
    """Each rated game the player has played: the rating now and every rated game's change, oldest first."""
    ratings, shown = runtime().ratings, {}
    for game in rated_games():
        now = ratings.current(player, game)
        if now.games:
            history = [_rated_game(entry) for entry in ratings.history(player, game)]
            rating, provisional = now.rating.shown, now.rating.provisional
            shown[game] = {"rating": rating, "provisional": provisional, "games": now.games, "history": history}
    return shown


def _rated_game(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "game_id": entry["game_id"],
        "ended_at": iso_ms(entry["ended"]),
        "place": entry["place"],
        "seats": entry["seats"],
        "before": entry["before"]["rating"],
        "after": entry["after"]["rating"],
        "provisional": entry["after"]["provisional"],
    }


def _own_profile(player: str) -> Profile:
    profile = runtime().players.accounts.profile(player)
    if profile is None:
        raise ApiError("unknown_player", "no such player (erased, or forgotten after long disuse)")
    return profile


def _new_key(player: str, key: str, key_id: str) -> Response:
    body = {**_profile(_own_profile(player)), "key": key, "key_id": key_id}
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = f"/v1/players/{player}"
    return response


def _admit(client: str) -> None:
    """A creation-like request (a player made, a link code drawn), against ``client``'s creation budget when
    limits are on."""
    limits = runtime().limits
    if limits is not None:
        limits.charge(limits.create, client)


@blp.route("")
class Players(MethodView):
    @blp.response(201, PlayerKeySchema)
    @documented(
        blp, "create_player", "rate_limited", "malformed_json", "validation_error", body=NameSchema, security=[]
    )
    def post(self) -> Response:
        """Make a player: its id and its first key, shown once (this answer only). Keep the key as you would a
        password; it is sent as `Authorization: Bearer <key>`. Rate-limited per address like creating games."""
        _admit(f"p:{address()}")
        name = _body(NAME_BODY)["name"]
        player, key, key_id = runtime().players.accounts.create(name, now_ms())
        return _new_key(player, key, key_id)


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, ProfileSchema)
    @documented(blp, "get_me", "invalid_token", "unknown_player", security=BEARER)
    def get(self) -> Response:
        """The key's player: name, member since, finished games per game."""
        return jsonify(_profile(_own_profile(_me())))

    @blp.response(200, ProfileSchema)
    @documented(
        blp,
        "rename_me",
        "invalid_token",
        "unknown_player",
        "malformed_json",
        "validation_error",
        body=NameSchema,
        security=BEARER,
    )
    def patch(self, **_: Any) -> Response:
        """A new name: for tables taken from now on and the profile (seats taken before keep theirs)."""
        player = _me()
        name = _body(NAME_BODY)["name"]
        _own_profile(player)
        runtime().players.accounts.rename(player, name)
        return jsonify(_profile(_own_profile(player)))

    @blp.response(204)
    @documented(blp, "erase_me", "invalid_token", security=BEARER)
    def delete(self) -> Response:
        """Erase the player for good: every key stops at once, the profile, the list of games and the ratings (with
        their history and places on the leaderboards) are gone, and its name in the games still kept becomes
        "deleted player" (nothing else of those games changes)."""
        service = runtime()
        erase(service.players, service.store, service.daily.board, service.ratings, _me())
        return Response(status=204)


def _me() -> str:
    checked = checked_player()
    assert checked is not None
    return checked.player


@blp.route("/me/keys")
class Keys(MethodView):
    @blp.response(200, KeyListSchema)
    @documented(blp, "list_my_keys", "invalid_token", security=BEARER)
    def get(self) -> Response:
        """The player's keys, one per device (never the keys themselves): when made, when last used (to the
        minute), and which one sent this request."""
        checked = checked_player()
        assert checked is not None
        listed = [
            {
                "key_id": info.key_id,
                "created_at": iso_ms(info.created_ms),
                "last_used_at": iso_ms(info.last_used_ms),
                "this_device": info.key_id == checked.key_id,
            }
            for info in runtime().players.accounts.keys(checked.player)
        ]
        return jsonify({"keys": listed})


@blp.route("/me/keys/<key_id>")
class Key(MethodView):
    @blp.response(204)
    @documented(blp, "revoke_key", "invalid_token", "not_found", security=BEARER)
    def delete(self, key_id: str) -> Response:
        """Revoke one of the player's keys: it stops at once, on every route. Revoking the key this request is
        sent with signs this device out."""
        if not runtime().players.accounts.revoke(_me(), key_id):
            raise ApiError("not_found", "the player has no such key")
        return Response(status=204)


@blp.route("/me/link")
class LinkCode(MethodView):
    @blp.response(201, LinkCodeSchema)
    @documented(blp, "make_link_code", "invalid_token", "rate_limited", security=BEARER)
    def post(self) -> Response:
        """A code for another device of this player: valid 10 minutes, used once. The other device sends it to
        `POST /v1/players/link` and gets a key of its own."""
        player = _me()
        _admit(f"l:{player}")
        now = now_ms()
        code = runtime().players.links.make(player, now)
        response = jsonify({"code": code, "expires_at": iso_ms(now + VALID_SECONDS * 1000)})
        response.status_code = 201
        return response


@blp.route("/link")
class Link(MethodView):
    @blp.response(201, PlayerKeySchema)
    @documented(
        blp,
        "link_device",
        "rate_limited",
        "malformed_json",
        "validation_error",
        "link_code_invalid",
        "link_code_used",
        "link_code_expired",
        body=LinkRequestSchema,
        security=[],
    )
    def post(self) -> Response:
        """Exchange a link code for a key of the same player, shown once (this answer only). A wrong code is
        `422 link_code_invalid`; 5 wrong codes from one address (in 10 minutes), or 5 wrong tries of one code,
        answer `429 rate_limited` with `Retry-After`; a used or expired code is `410`."""
        code = _body(LINK_BODY)["code"]
        service = runtime()
        now = now_ms()
        player = service.players.links.use(code, address(), now)
        key, key_id = service.players.accounts.add_key(player, now)
        return _new_key(player, key, key_id)


@blp.route("/me/games")
class MyGames(MethodView):
    @games_answers
    @documented(
        blp,
        "list_my_games",
        "invalid_token",
        "rate_limited",
        "validation_error",
        security=BEARER,
        parameters=GAMES_PARAMETERS,
    )
    def get(self) -> Response:
        """The player's games, live ones first (to continue), then finished ones (to replay and analyse), newest
        first; `limit` per page and `next` as the cursor, as the lobby list does. With `Accept:
        application/x-ndjson`, every kept finished game instead (the export; a daily deal once its day is over)."""
        return _games(_me(), lambda record: True)


@blp.route("/<string(length=16):player_id>", parameters=[PLAYER_PARAMETER])
class PublicProfile(MethodView):
    @blp.response(200, ProfileSchema)
    @documented(blp, "get_player", "unknown_player", "not_found", security=[])
    def get(self, player_id: str) -> Response:
        """A player's public profile: name, member since, finished games per game."""
        return jsonify(_profile(_own_profile(player_id)))


@blp.route("/<string(length=16):player_id>/games", parameters=[PLAYER_PARAMETER])
class PublicGames(MethodView):
    @games_answers
    @documented(
        blp,
        "list_player_games",
        "unknown_player",
        "not_found",
        "rate_limited",
        "validation_error",
        security=[],
        parameters=GAMES_PARAMETERS,
    )
    def get(self, player_id: str) -> Response:
        """A player's public games (those anyone may read: with spectators, or a daily deal once its day is over),
        as `GET /v1/players/me/games` lists them; with `Accept: application/x-ndjson`, the export of them."""
        _own_profile(player_id)
        now = runtime().now()
        return _games(player_id, lambda record: open_to_anyone(record, now))


def _games(player: str, shown: Callable[[GameRecord], bool]) -> Response:
    """A page of ``player``'s games that ``shown`` accepts, or with ``Accept: application/x-ndjson`` the export
    of every kept finished one."""
    admit_listing()
    query = validate(GAMES_QUERY, request.args.to_dict())
    game = query.get("game")

    def keep(record: GameRecord) -> bool:
        return (game is None or record.game == game) and shown(record)

    if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
        return Response(stream_with_context(_export(player, keep)), mimetype=NDJSON)
    index = runtime().players.index
    listed, cursor = index.page(player, query.get("status"), query.get("cursor"), query["limit"], keep)
    return jsonify({"games": [played_game(item.game_id, item.record, player) for item in listed], "next": cursor})


def _export(player: str, keep: Callable[[GameRecord], bool]) -> Iterator[bytes]:
    """Every kept finished game of ``player`` that ``keep`` accepts, a line each, read a page at a time."""
    index, now = runtime().players.index, runtime().now()
    cursor: str | None = None
    while True:
        page: list[Listed]
        page, cursor = index.page(
            player, "finished", cursor, 100, lambda record: keep(record) and exportable(record, now)
        )
        for item in page:
            yield dump_bytes(export_line(item.game_id, item.record)) + b"\n"
        if cursor is None:
            return
