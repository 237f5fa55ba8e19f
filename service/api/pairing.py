"""Play now: seat a player in the oldest open lobby that fits, or open one (docs/api.md, "Play now")."""

from __future__ import annotations

from flask import Response, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..http.reading import parse_json
from ..pairing import Request, Seated
from ..play.incoming import validate
from .context import address, admit_creation, checked_player, runtime, writer
from .documented import BEARER, documented
from .pairing_schemas import PairedSchema, PairingRequestSchema

blp = Blueprint("pairing", __name__, url_prefix="/v1/pairing", description="Play now: pairing")

PAIRING_REQUEST = PairingRequestSchema()


@blp.route("")
class Pairing(MethodView):
    @blp.response(200, PairedSchema)
    @documented(
        blp,
        "play_now",
        "invalid_token",
        "rate_limited",
        "capacity",
        "malformed_json",
        "validation_error",
        "already_pairing",
        body=PairingRequestSchema,
        security=BEARER,
    )
    def post(self) -> Response:
        """Seat the player (its key) in the oldest open Play now lobby of this game, player count and rated flag
        that fits (rated: every rating in it within a window of yours that widens while it waits), or open one. A
        lobby filled by pairing starts by itself; with `bots_after_s`, bots take its empty seats after that wait.
        `201` when the seat is taken now (with its token), `200` when asked again while waiting (the same seat)."""
        checked = checked_player()
        assert checked is not None
        body = validate(PAIRING_REQUEST, parse_json(request.get_data(cache=True)))
        admit_creation()
        service = runtime()
        profile = service.players.accounts.profile(checked.player)
        rating = None
        if body["rated"]:
            rating = service.ratings.current(checked.player, body["game"]).rating.points
        seeker = Request(
            checked.player,
            "player" if profile is None else profile.name,
            body["game"],
            body["players"],
            body["rated"],
            body.get("bots_after_s"),
            rating,
        )
        seated = service.pairing.seek(writer(), seeker, service.now(), address())
        if seated.answer.status == 201:
            service.players.index.bound(seated.placed.game_id, seated.record, [checked.player])
        response = jsonify(_paired(seated))
        response.status_code = seated.answer.status
        return response

    @blp.response(204)
    @documented(blp, "stop_pairing", "invalid_token", "game_started", security=BEARER)
    def delete(self) -> Response:
        """Stop waiting: the seat is free again (a lobby left empty closes). `204` also when not waiting; `409
        game_started` once the game has started (play it, or leave its seat)."""
        checked = checked_player()
        assert checked is not None
        service = runtime()
        service.pairing.stop(writer(), checked.player, service.now(), address())
        return Response(status=204)


def _paired(seated: Seated) -> dict[str, object]:
    record = seated.record
    return {
        "game_id": seated.placed.game_id,
        "game": record.game,
        "players": record.players,
        "rated": record.rated,
        "seat": seated.placed.seat,
        "token": seated.answer.token,
        "status": record.status,
        "free_seats": record.free_seats,
        "bots_at": record.bots_at or None,
    }
