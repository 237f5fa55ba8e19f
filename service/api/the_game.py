"""The Game's first routes (plays, turn ends, whole turns, signals), kept for their clients: each validates its
body, turns it into actions and goes the one way every action goes (``actions.seat_acts``)."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from ..play.bodies import Actions, reading
from .actions import ACT_ERRORS, seat_acts
from .documented import BEARER, documented
from .game_schemas import ref, view_name
from .the_game_schemas import EmptySchema, PlaySchema, SignalSchema, TurnSchema

blp = Blueprint("plays", __name__, url_prefix="/v1/games", description="The Game: place cards, end turns, signal")

# Request schemas are built once: loading with a shared instance is safe, and building one costs.
PLAY = PlaySchema()
EMPTY = EmptySchema()
TURN = TurnSchema()
SIGNAL = SignalSchema()

#: These routes serve The Game only, so they answer its view (another game's: 422 invalid_action, pointing to
#: ``/actions``).
GAME = "the-game"
VIEW = ref(view_name(GAME))


def _plays(body: dict[str, Any]) -> Actions:
    return [{"type": "play", "card": play["card"], "pile": play["pile"]} for play in body["plays"]]


@blp.route("/<game_id>/plays")
class Plays(MethodView):
    @blp.response(200, VIEW)
    @documented(
        blp,
        "play_card",
        *ACT_ERRORS,
        "card_not_in_hand",
        "illegal_play",
        body=PlaySchema,
        security=BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """Place one card on a pile; answers the seat's new view."""
        return seat_acts(game_id, reading(PLAY, lambda body: [{"type": "play", **body}]), GAME)


@blp.route("/<game_id>/turn/end")
class TurnEnd(MethodView):
    @blp.response(200, VIEW)
    @documented(blp, "end_turn", *ACT_ERRORS, "minimum_not_reached", body=EmptySchema, security=BEARER, changes=True)
    def post(self, game_id: str) -> Response:
        """End the turn: draw as many cards as were placed, pass on (bots then play their turns)."""
        return seat_acts(game_id, reading(EMPTY, lambda body: [{"type": "end_turn"}]), GAME)


@blp.route("/<game_id>/turns")
class Turns(MethodView):
    @blp.response(200, VIEW)
    @documented(
        blp,
        "play_turn",
        *ACT_ERRORS,
        "card_not_in_hand",
        "illegal_play",
        "minimum_not_reached",
        body=TurnSchema,
        security=BEARER,
        changes=True,
    )
    def post(self, game_id: str) -> Response:
        """A whole turn, all or nothing: every play in order, then (by default) the end of the turn."""
        return seat_acts(
            game_id,
            reading(TURN, lambda body: [*_plays(body), *([{"type": "end_turn"}] if body["end_turn"] else [])]),
            GAME,
        )


@blp.route("/<game_id>/signals")
class Signals(MethodView):
    @blp.response(200, VIEW)
    @documented(blp, "send_signal", *ACT_ERRORS, "signal_unchanged", body=SignalSchema, security=BEARER, changes=True)
    def post(self, game_id: str) -> Response:
        """Ask the others not to play (`dont_play`) or not to jump far (`no_big_jump`) on a pile;
        `clear: true` withdraws it. Any seat, on its turn or not; a signal must change the table."""
        return seat_acts(game_id, reading(SIGNAL, lambda body: [{"type": "signal", **body}]), GAME)
