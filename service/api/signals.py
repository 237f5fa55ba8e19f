"""Signals: table talk without numbers, from any seat at any time while the game runs."""

from __future__ import annotations

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg

from .common import BEARER, documented
from .plays import ACT_ERRORS, seat_action
from .schemas import SignalSchema, ViewSchema

blp = Blueprint("signals", __name__, url_prefix="/v1/games", description="Signal without numbers")

# Request schemas are built once: loading with a shared instance is safe, and building one costs.
SIGNAL = SignalSchema()


@blp.route("/<game_id>/signals")
class Signals(MethodView):
    @blp.response(200, ViewSchema)
    @documented(blp, "send_signal", *ACT_ERRORS, body=SignalSchema, security=BEARER, changes=True)
    def post(self, game_id: str) -> Response:
        """Ask the others not to play (`dont_play`) or not to jump far (`no_big_jump`) on a pile;
        `clear: true` withdraws it. Any seat, on its turn or not."""
        return seat_action(
            game_id,
            SIGNAL,
            lambda body, seat: [tg.Signal(seat, body["pile"], body["kind"], clear=body["clear"])],
            on_turn=False,
        )
