"""The event stream of a game: Server-Sent Events of the caller's view, one per version (``service/streams/sse.py``).

Every check runs before the stream starts, through the same read path as ``GET /v1/games/{id}``, so a bad
token or an unknown game answers the usual JSON error; only then does ``200 text/event-stream`` begin.
"""

from __future__ import annotations

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..errors import ApiError
from ..http.reading import bearer_digest
from ..http.sockets import bound_writes, direct_socket
from ..limits.streams import Slot
from ..players import keys
from ..streams.sse import Reader, more_to_come, parse_tag, resumes_after, stream
from .context import address, current, incoming, runtime, seat_token
from .documented import OPTIONAL_BEARER, documented

blp = Blueprint("events", __name__, url_prefix="/v1/games", description="Live play: the event stream of a game")

PARAMETERS = [
    {
        "in": "query",
        "name": "token",
        "schema": {"type": "string"},
        "description": "the token, for clients that cannot send headers (browser EventSource); the "
        "Authorization header wins when both are sent",
    },
    {
        "in": "header",
        "name": "Last-Event-ID",
        "schema": {"type": "string"},
        "description": "the id of the last event received (`<version>.<nonce>`, or a version): the stream resumes "
        "after it, or sends the current view at once if the game's history no longer holds it",
    },
]
#: One Server-Sent Event, as clients' SSE parsers hand it over: `event: view`, `id: <version>`, and `data` holding
#: the JSON `{"version": n, "view": <the reader's view>}` (the first, `retry`, only sets the reconnection delay).
STREAM = {
    "type": "object",
    "description": "Server-Sent Events, one per version",
    "properties": {
        "event": {"type": "string", "enum": ["view"]},
        "id": {"type": "string", "description": "the version and the nonce of the write that made it: the ETag's tag"},
        "data": {"type": "string", "description": 'JSON: {"version": n, "view": <the reader\'s view>}'},
        "retry": {"type": "integer", "description": "milliseconds before a reconnection"},
    },
}


def _token_from_query() -> None:
    """``?token=`` stands for ``Authorization: Bearer`` when no such header came (EventSource sends none),
    so every check reads the token one way. A player key never: a URL ends up in logs and histories, and a key
    outlives a game (``401``, without reading the key)."""
    token = request.args.get("token")
    if keys.looks_like_key(token):
        raise ApiError("invalid_token", "send a player key in the Authorization header, never in a URL")
    if token is not None and "Authorization" not in request.headers:
        request.environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.response(200, STREAM, content_type="text/event-stream", description="the stream of the caller's views")
    @blp.alt_response(204, description="the game is over and the client has seen its rematch: stop reconnecting")
    @documented(
        blp, "stream_events", "unknown_game", "invalid_token", "forbidden", "too_many_streams", security=OPTIONAL_BEARER
    )
    @blp.doc(parameters=PARAMETERS)
    def get(self, game_id: str) -> Response:
        """Server-Sent Events: first the caller's full view (a seat token: its own; else the public view), then
        one `view` event per version, `id: <version>.<nonce>` (the ETag's tag), `data: {"version", "view"}`;
        keep-alive comments. Once the game is over the stream stays open for its rematch, and ends after the view
        that carries it (a seat's view: the seat's token in the new game). `Last-Event-ID` resumes after the event it
        names, or sends the current view at once if that version was lost (a Redis crash or failover). A client (an
        address, a token) holds at most `TG_STREAMS_PER_CLIENT` streams at once."""
        _token_from_query()
        service, digest = runtime(), bearer_digest()
        watch = service.hub.watch(game_id)  # before the read: no change after it is missed
        try:
            parts = incoming(game_id)
            record, viewer = current(game_id, parts)
            seen = parse_tag(request.headers.get("Last-Event-ID", ""))
            caught_up = resumes_after(record, seen) == record.version
            if caught_up and not more_to_come(record, viewer.now, service.settings.rematch_wait):
                watch.close()
                return Response(status=204)
            if viewer.seat is not None:
                watch.seated()  # served before the spectators of every process (``service/streams/hub.py``)
            slot = _slot(digest)
        except Exception:
            watch.close()
            raise
        reader = Reader(game_id, seat_token(parts), digest, viewer.seat, parts.player)
        body = stream(service, watch, reader, record, seen, direct_socket(request.environ))
        response = Response(body if slot is None else slot.holding(body), mimetype="text/event-stream")
        response.headers["X-Accel-Buffering"] = "no"  # a proxy such as nginx passes each event on at once
        response.call_on_close(watch.close)
        if slot is not None:
            response.call_on_close(slot.release)
        response.call_on_close(bound_writes(request.environ, service.settings.stream_write_timeout))
        return response


def _slot(digest: str | None) -> Slot | None:
    """The stream's slots among its address's and its token's (``429 too_many_streams`` when either holds the
    cap), when limits cap streams. ``digest``: the token's, which the read has found to be the game's (any other
    answered 401)."""
    limits = runtime().limits
    if limits is None or limits.streams is None:
        return None
    return limits.streams.take(address(), digest)
