"""Headers every answer carries: a content policy, no sniffing or framing, no caching of games, and CORS for the
origins ``TG_CORS_ORIGINS`` allows (with their preflights)."""

from __future__ import annotations

from flask import Response, current_app, request
from werkzeug.exceptions import HTTPException

#: Swagger UI at /docs needs its scripts and styles from /docs/assets, its inline initialiser and the inline
#: styles it sets, its data: images, and calls to this origin (the spec, "Try it out"); nothing else.
DOCS_POLICY = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
#: The JSON API loads nothing and is framed nowhere.
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
CORS_ALLOW_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID"
CORS_EXPOSE_HEADERS = "ETag, Retry-After, Location"
CORS_MAX_AGE = "600"  # seconds a browser may reuse a preflight answer (Chromium caps it at 7200)


def _allowed_origin() -> str | None:
    """The request's ``Origin`` if ``CORS_ORIGINS`` (``TG_CORS_ORIGINS``) lets it in."""
    origin = request.headers.get("Origin")
    allowed = current_app.config.get("CORS_ORIGINS") or ()
    return origin if origin and ("*" in allowed or origin in allowed) else None


def allowed_methods() -> list[str] | None:
    """The methods of the route the request's path names, ``None`` if none: its most specific rule's alone
    (``/v1/games/catalog``'s, without the ``DELETE`` of ``/v1/games/{game_id}``, which werkzeug's own list adds as
    that rule matches the path too). Every rule answers ``OPTIONS``, so matching it finds the rule a request of
    the path's own methods would reach."""
    adapter = current_app.create_url_adapter(request)
    if adapter is None:
        return None
    try:
        rule, _ = adapter.match(request.path, method="OPTIONS", return_rule=True)
    except HTTPException:
        return None
    return sorted(rule.methods or ())


def options_reply() -> Response | None:
    """``OPTIONS`` on a route: ``Allow`` lists its methods; a browser's preflight (with
    ``Access-Control-Request-Method``) from an allowed origin gets ``204`` with the methods and headers it may use.
    Elsewhere, ``None``: Flask answers (a route that does not exist: ``404``)."""
    methods = allowed_methods() if request.method == "OPTIONS" else None
    if methods is None:
        return None
    if "Access-Control-Request-Method" not in request.headers or _allowed_origin() is None:
        response = Response(status=200)
        response.headers["Allow"] = ", ".join(methods)
        return response
    response = Response(status=204)
    del response.headers["Content-Type"]
    response.headers["Access-Control-Allow-Methods"] = ", ".join(sorted(set(methods) - {"HEAD", "OPTIONS"}))
    response.headers["Access-Control-Allow-Headers"] = CORS_ALLOW_HEADERS
    response.headers["Access-Control-Max-Age"] = CORS_MAX_AGE
    return response


#: Paths never stored by a cache: games' (views carry hands, answers carry tokens) and players' (answers carry keys).
NO_STORE = ("/v1/games/", "/v1/players/")


def secure_headers(response: Response) -> Response:
    """Every answer: no MIME sniffing, no framing, a content policy (Swagger UI's at /docs; the page's routes set their
    own); never stored by a cache under /v1/games and /v1/players (views carry hands, create and seat answers carry
    tokens, players' answers keys: ETag and 304 still work); and the CORS headers for an allowed origin (no
    credentials: tokens travel in the Authorization header)."""
    headers = response.headers
    headers["X-Content-Type-Options"] = "nosniff"
    headers["X-Frame-Options"] = "DENY"
    docs = request.path == "/docs" or request.path.startswith("/docs/")
    headers.setdefault("Content-Security-Policy", DOCS_POLICY if docs else API_POLICY)  # the page sets its own
    if f"{request.path}/".startswith(NO_STORE):
        headers["Cache-Control"] = "no-store"
    if current_app.config.get("CORS_ORIGINS"):
        response.vary.add("Origin")
        origin = _allowed_origin()
        if origin is not None:
            headers["Access-Control-Allow-Origin"] = origin
            headers["Access-Control-Expose-Headers"] = CORS_EXPOSE_HEADERS
    return response
