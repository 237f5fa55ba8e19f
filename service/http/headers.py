"""Headers every answer carries: a content policy, no sniffing or framing, no caching of games, and CORS for the
origins ``TG_CORS_ORIGINS`` allows (with their preflights)."""

from __future__ import annotations

from flask import Response, current_app, request

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


def cors_preflight() -> Response | None:
    """A browser's preflight (``OPTIONS`` with ``Access-Control-Request-Method``) from an allowed origin, on a
    route that exists: ``204`` with the methods and headers it may use. Other ``OPTIONS`` go on to Flask."""
    if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
        return None
    if _allowed_origin() is None or request.url_rule is None:
        return None
    adapter = current_app.create_url_adapter(request)
    methods = sorted(set(adapter.allowed_methods() if adapter else ()) - {"HEAD", "OPTIONS"})
    response = Response(status=204)
    del response.headers["Content-Type"]
    response.headers["Access-Control-Allow-Methods"] = ", ".join(methods)
    response.headers["Access-Control-Allow-Headers"] = CORS_ALLOW_HEADERS
    response.headers["Access-Control-Max-Age"] = CORS_MAX_AGE
    return response


def secure_headers(response: Response) -> Response:
    """Every answer: no MIME sniffing, no framing, a content policy (Swagger UI's at /docs; the page's routes set their
    own); never stored by a cache under /v1/games (views carry hands, create and seat answers carry tokens: ETag
    and 304 still work); and the CORS headers for an allowed origin (no credentials: tokens travel in the
    Authorization header)."""
    headers = response.headers
    headers["X-Content-Type-Options"] = "nosniff"
    headers["X-Frame-Options"] = "DENY"
    docs = request.path == "/docs" or request.path.startswith("/docs/")
    headers.setdefault("Content-Security-Policy", DOCS_POLICY if docs else API_POLICY)  # the page sets its own
    if request.path == "/v1/games" or request.path.startswith("/v1/games/"):
        headers["Cache-Control"] = "no-store"
    if current_app.config.get("CORS_ORIGINS"):
        response.vary.add("Origin")
        origin = _allowed_origin()
        if origin is not None:
            headers["Access-Control-Allow-Origin"] = origin
            headers["Access-Control-Expose-Headers"] = CORS_EXPOSE_HEADERS
    return response
