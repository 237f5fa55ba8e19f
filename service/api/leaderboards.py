"""Ratings' leaderboards: the best established players of each rated game (docs/api.md, "Ratings")."""

from __future__ import annotations

from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg

from ..errors import ApiError
from ..ratings import rated
from ..ratings.board import WINDOW_DAYS
from ..ratings.scale import NEW, PROVISIONAL_SPREAD, SCALE
from .context import admit_listing, runtime
from .documented import documented
from .rating_schemas import LeaderboardSchema

blp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards", description="Ratings: leaderboards")

RATED_GAME = {"type": "string", "enum": [name for name in tg.game_names() if rated(name)]}
SCALE_FACTS = {"new": NEW, "points_per_ordinal": SCALE, "provisional_spread": PROVISIONAL_SPREAD}


@blp.route("/<game>", parameters=[{"in": "path", "name": "game", "schema": RATED_GAME}])
class Leaderboard(MethodView):
    @blp.response(200, LeaderboardSchema)
    @documented(blp, "get_leaderboard", "rate_limited", "validation_error", security=[])
    def get(self, game: str) -> Response:
        """The best 100 established players of a rated game (every competitive game: not The Game), best first:
        players whose rating is not provisional and who finished a rated game in the last 30 days."""
        admit_listing()
        if not rated(game):
            games = ", ".join(RATED_GAME["enum"])
            raise ApiError("validation_error", "no such rated game", {"game": [f"rated games: {games}"]})
        service = runtime()
        count, entries = service.ratings.boards.top(game, int(service.now() * 1000))
        players = [
            {"rank": entry.rank, "player": entry.player, "rating": round(entry.points), "games": entry.games}
            for entry in entries
        ]
        answer = {"game": game, "count": count, "window_days": WINDOW_DAYS, "scale": SCALE_FACTS, "players": players}
        return jsonify(answer)
