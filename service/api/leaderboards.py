"""Ratings' leaderboards: the best established players of each rated game (docs/api.md, "Ratings")."""

from __future__ import annotations

from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

from ..errors import ApiError
from ..ratings import rated, rated_games
from ..ratings.board import WINDOW_DAYS
from ..ratings.scale import NEW, PROVISIONAL_SPREAD, SCALE
from .context import admit_listing, checked_player, now_ms, runtime
from .documented import BEARER, documented
from .rating_schemas import LeaderboardSchema, StandingSchema

blp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards", description="Ratings: leaderboards")

RATED_GAME = {"type": "string", "enum": rated_games()}
SCALE_FACTS = {"new": NEW, "points_per_ordinal": SCALE, "provisional_spread": PROVISIONAL_SPREAD}


@blp.route("/<game>", parameters=[{"in": "path", "name": "game", "schema": RATED_GAME}])
class Leaderboard(MethodView):
    @blp.response(200, LeaderboardSchema)
    @documented(blp, "get_leaderboard", "rate_limited", "validation_error", security=[])
    def get(self, game: str) -> Response:
        """The best 100 established players of a rated game (every competitive game: not The Game), best first:
        players whose rating is not provisional and who finished a rated game in the last 30 days."""
        admit_listing()
        _check_rated(game)
        service = runtime()
        count, entries = service.ratings.boards.top(game, int(service.now() * 1000))
        names = service.players.accounts.names([entry.player for entry in entries])
        players = [
            {
                "rank": entry.rank,
                "player": entry.player,
                "name": name,
                "rating": round(entry.points),
                "games": entry.games,
            }
            for entry, name in zip(entries, names, strict=True)
        ]
        answer = {"game": game, "count": count, "window_days": WINDOW_DAYS, "scale": SCALE_FACTS, "players": players}
        return jsonify(answer)


@blp.route("/<game>/me", parameters=[{"in": "path", "name": "game", "schema": RATED_GAME}])
class MyStanding(MethodView):
    @blp.response(200, StandingSchema)
    @documented(blp, "get_my_leaderboard_rank", "invalid_token", "rate_limited", "validation_error", security=BEARER)
    def get(self, game: str) -> Response:
        """Your place on a rated game's leaderboard (`rank` null while off it: provisional, or no rated game in
        the last 30 days), with your rating now."""
        admit_listing()
        _check_rated(game)
        checked = checked_player()
        assert checked is not None
        service = runtime()
        standing = service.ratings.boards.standing(game, checked.player, now_ms())
        now = service.ratings.current(checked.player, game)
        answer = {
            "game": game,
            "player": checked.player,
            "count": standing.count,
            "rank": standing.rank,
            "rating": now.rating.shown,
            "provisional": now.rating.provisional,
            "games": now.games,
        }
        return jsonify(answer)


def _check_rated(game: str) -> None:
    if not rated(game):
        games = ", ".join(RATED_GAME["enum"])
        raise ApiError("validation_error", "no such rated game", {"game": [f"rated games: {games}"]})
