"""A finished game's analysis, move by move: worked out by the job queue's workers (``service/analysis``), read
here."""

from __future__ import annotations

from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

import thegame_core as tg
from thegame_core.analysis import Plan

from ..errors import ApiError
from .analysis_schemas import AnalysisPendingSchema, AnalysisSchema
from .context import admit_analysis, current, finished, runtime
from .documented import OPTIONAL_BEARER, documented

blp = Blueprint("analysis", __name__, url_prefix="/v1/games", description="Analysis of a finished game")

#: Seconds a client waits before it asks again for an analysis under way.
RETRY_AFTER = 2
PENDING = (
    "the analysis is being worked out: ask the Location again after Retry-After seconds (the body says how far it is)"
)


def analysable(game_id: str, state: tg.AnyState) -> Plan:
    """The game's analysis planned (its decisions counted), or ``409 not_analysable`` for a game the analysis refuses
    (its referee judged actions by their time)."""
    try:
        return runtime().analyses.plan(game_id, state.replay_record())
    except tg.GameError as error:
        raise ApiError("not_analysable", str(error)) from None


@blp.route("/<game_id>/analysis")
class Analysis(MethodView):
    @blp.response(200, AnalysisSchema)
    @blp.alt_response(
        202,
        schema=AnalysisPendingSchema,
        description=PENDING,
        headers={
            "Location": {"schema": {"type": "string"}, "description": "this address, to ask again"},
            "Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait before asking again"},
        },
    )
    @documented(
        blp,
        "get_analysis",
        "unknown_game",
        "invalid_token",
        "forbidden",
        "game_not_over",
        "daily_not_over",
        "not_analysable",
        "rate_limited",
        security=OPTIONAL_BEARER,
    )
    def get(self, game_id: str) -> Response:
        """For each decision of each seat, what `best` would have done from that seat's view, and the value of the
        choice made against it, by playouts that never see the cards the seat could not see (docs/api.md,
        "Analysis"). Readable by whoever may read the log, once the game is over. The first request puts it on the
        job queue and answers `202` (how far it is, its place on the queue, the seconds left); so do the next ones
        until it is stored, then `200`. A game whose referee judged slaps by
        their time (Bataille corse's `slap_window_ms`) is not analysed (`409 not_analysable`). Starting one counts
        against the client address's analysis budget (`TG_ANALYSIS_RATE`)."""
        state = finished(*current(game_id))
        analyses = runtime().analyses
        # The queue before the store: a worker stores the analysis, then takes it off the queue, so one finished
        # between the two reads is found stored, never asked for (and paid for) again.
        waiting = analyses.queue.waiting(game_id)
        stored = analyses.store.result(game_id)
        if stored is not None:
            return Response(stored, mimetype="application/json")
        if waiting is None:
            work = analysable(game_id, state)
            admit_analysis()
            waiting = analyses.ask(game_id, work)
        body = {"done": None, "total": None, "queue_position": None, "eta_s": None}
        response = jsonify({"status": "pending", **body, **(waiting.to_dict() if waiting else {})})
        response.status_code = 202
        response.headers["Location"] = f"/v1/games/{game_id}/analysis"
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response
