"""The move log: public entries while the game runs, plus the full replay once it is over."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from ..daily import days
from ..http.replies import read_reply
from ..play.presenters import log_view
from .context import current
from .documented import OPTIONAL_BEARER, documented
from .log_schemas import LogSchema

blp = Blueprint("log", __name__, url_prefix="/v1/games", description="Move log and replay")


@blp.route("/<game_id>/log")
class Log(MethodView):
    @blp.response(200, LogSchema)
    @documented(blp, "get_log", "unknown_game", "invalid_token", "forbidden", security=OPTIONAL_BEARER, reads=True)
    def get(self, game_id: str) -> Response:
        """Who placed what where, signals and turn ends (never hands or the deck); once the game is over,
        `replay` = `{deck, options, first_seat, actions}` from which `thegame_core.replay` rebuilds it (a daily
        game's: once its day is over, UTC)."""
        record, viewer = current(game_id)
        view = log_view(record)
        if days.deal_hidden(record.daily, viewer.now):
            view["replay"] = None
        return read_reply(view, record.tag())
