"""Daily deals' leaderboards: a deal's results and a player's rank (games on a deal are created by POST /v1/games)."""

from __future__ import annotations

from flask import Response, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg

from ..daily import days
from ..daily.board import Deal
from ..daily.leaderboard import board_view, rank_view
from ..errors import ApiError
from ..http.reading import bearer_token
from ..play import tokens
from ..play.incoming import validate
from ..play.tokens import MALFORMED
from ..records.game_record import GameRecord
from .context import admit_listing, checked_player, runtime
from .daily_schemas import DAILY_MAX_OFFSET, DAILY_PAGE, DailyBoardSchema, DailyQuerySchema
from .documented import BEARER, documented
from .rating_schemas import DailyStandingSchema
from .schemas import DAY_DOC, GAME_DOC, PLAYERS

blp = Blueprint("daily", __name__, url_prefix="/v1/daily", description="Daily deals: leaderboards")

DAILY_QUERY = DailyQuerySchema()
PAGE_PARAMETERS = [
    {
        "in": "query",
        "name": "offset",
        "schema": {"type": "integer", "minimum": 0, "maximum": DAILY_MAX_OFFSET, "default": 0},
    },
    {
        "in": "query",
        "name": "limit",
        "schema": {"type": "integer", "minimum": 1, "maximum": DAILY_PAGE, "default": DAILY_PAGE},
    },
]

#: The deal a path names (each game checks its own player count).
DEAL_PARAMETERS = [
    {"in": "path", "name": "game", "schema": GAME_DOC},
    {
        "in": "path",
        "name": "players",
        "schema": {"type": "integer", "minimum": PLAYERS.min, "maximum": PLAYERS.max},
        "description": "within the game's range (GET /v1/games/catalog)",
    },
    {"in": "path", "name": "day", "schema": DAY_DOC},
]


def _deal(game: str, players: int, day: str) -> Deal:
    """The deal a path names: a game of the catalog, players in its range, a day not after today (422)."""
    if game not in tg.game_names():
        raise ApiError("validation_error", "no such game", {"game": [f"games: {', '.join(tg.game_names())}"]})
    info = tg.get_game(game).info
    if not info.min_players <= players <= info.max_players:
        limits = f"{game} is played by {info.min_players} to {info.max_players}"
        raise ApiError("validation_error", "no such player count", {"players": [limits]})
    return Deal(game, players, days.requested(day, runtime().now(), "date"))


@blp.route("/<game>/<int:players>/<day>", parameters=DEAL_PARAMETERS)
class Board(MethodView):
    @blp.response(200, DailyBoardSchema)
    @documented(
        blp,
        "get_daily_board",
        "not_found",
        "rate_limited",
        "validation_error",
        "daily_in_future",
        security=[],
        parameters=PAGE_PARAMETERS,
    )
    def get(self, game: str, players: int, day: str) -> Response:
        """A day's deal: its results best first (`limit` per page, at most 100, from `offset`), the bots' own result
        on it (`best` at every seat) and the number of results. Names and results only while the day runs; the
        seed and each result's game id once it is over. A path whose players is no integer is no route (`404
        not_found`)."""
        admit_listing()
        deal = _deal(game, players, day)
        query = validate(DAILY_QUERY, request.args.to_dict())
        return jsonify(board_view(runtime().daily, deal, runtime().now(), query["offset"], query["limit"]))


@blp.route("/<game>/<int:players>/<day>/me", parameters=DEAL_PARAMETERS)
class Rank(MethodView):
    @blp.response(200, DailyStandingSchema)
    @documented(
        blp,
        "get_daily_rank",
        "invalid_token",
        "not_on_board",
        "not_found",
        "rate_limited",
        "validation_error",
        "daily_in_future",
        security=BEARER,
    )
    def get(self, game: str, players: int, day: str) -> Response:
        """The rank of the result of the seat whose token is sent, on that day's deal, and its percentile: the share
        of the deal's tables (this one among them) with a worse result (`404 not_on_board` until its game is
        over). A player key answers for the player's latest game on the deal taken with a key."""
        admit_listing()
        checked, token = checked_player(required=False), bearer_token()
        if checked is None and (token is None or token == MALFORMED):
            raise ApiError("invalid_token", "send the seat token of your daily game, or your player key")
        deal = _deal(game, players, day)
        digest = tokens.token_hash(str(token)) if checked is None else _player_seat(checked.player, deal)
        return jsonify(rank_view(runtime().daily, deal, digest))


def _player_seat(player: str, deal: Deal) -> str:
    """The token digest of the player's seat in its latest game on the deal taken with its key, which the board
    keys its result by (``404 not_on_board`` without one)."""
    game_id = runtime().players.index.daily_game(player, deal.game, deal.players, deal.day.isoformat())
    snapshot = None if game_id is None else runtime().store.load(game_id)
    record = None if snapshot is None else GameRecord.load(snapshot.meta, snapshot.state)
    for held in () if record is None else record.seats:
        if held is not None and held.player == player and held.token is not None:
            return held.token
    raise ApiError("not_on_board", "no game of yours on this deal")
