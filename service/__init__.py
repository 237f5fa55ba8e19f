"""The REST service of every registered game: ``create_app(config=None)`` builds the Flask app (``docs/api.md``)."""

from __future__ import annotations

import io
import time
from collections.abc import Iterable, Mapping
from typing import IO, Any

import fakeredis
import flask_smorest
import marshmallow as ma
import redis
import swagger_ui_bundle
from flask import Blueprint, Flask, Response, current_app, request

from . import api, limits, web
from .api.schemas import ErrorSchema
from .config import from_env
from .errors import register_error_handlers
from .events import Hub
from .json_text import FastJSONProvider
from .lobby_index import INDEX_PREFIX, LobbyIndex
from .store import GameStore

__all__ = ["create_app"]

API_SETTINGS = {
    "API_TITLE": "The Game service",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "v1/openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",  # served from swagger-ui-bundle: /docs works offline
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "An open game service for the card games of our rule books: The Game (Steffen "
            "Benndorf) and Ninja. GET /v1/games/catalog describes every game. Guide: docs/api.md."
        },
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    },
}


#: Swagger UI's scripts and styles, from the installed bundle rather than a CDN the user may not reach.
SWAGGER_UI_ASSETS = Blueprint(
    "swagger_ui_assets", __name__, static_folder=swagger_ui_bundle.swagger_ui_path, static_url_path="/docs/assets"
)


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
    """Every answer: no MIME sniffing, no framing, a content policy (Swagger UI's at /docs; the page's routes set
    their own); never stored by a cache under /v1/games (views carry hands, create and seat answers carry tokens:
    ETag and 304 still work); and the CORS headers for an allowed origin (no credentials: tokens travel in the
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


def _read_at_most(stream: IO[bytes], size: int) -> bytes:
    """Up to ``size`` bytes of ``stream``: fewer only at its end."""
    parts: list[bytes] = []
    while size > 0:
        part = stream.read(min(size, 64 * 1024))
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


class BoundedChunkedBodies:
    """WSGI middleware: a ``Transfer-Encoding: chunked`` body (no ``Content-Length``) is read up to one byte past
    ``MAX_CONTENT_LENGTH`` (``TG_MAX_BODY_BYTES``) and no further, then handed to Flask as a body of known length,
    so a body over the limit answers ``413 body_too_large`` like a declared one (Werkzeug alone would cut it at
    the limit and the truncated JSON would answer ``400 malformed_json``)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wsgi_app = app.wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            limit = self.app.config["MAX_CONTENT_LENGTH"]
            body = _read_at_most(environ["wsgi.input"], limit + 1)
            environ["wsgi.input"] = io.BytesIO(body if len(body) <= limit else b"")
            environ["CONTENT_LENGTH"] = str(len(body))  # over the limit: Werkzeug answers 413 when it is read
            environ.pop("wsgi.input_terminated", None)
            environ.pop("HTTP_TRANSFER_ENCODING")  # de-chunked: Werkzeug now trusts CONTENT_LENGTH
        return self.wsgi_app(environ, start_response)


class Api(flask_smorest.Api):  # type: ignore[misc]
    """flask-smorest with this service's error body in the spec."""

    ERROR_SCHEMA = ErrorSchema


def nullable_reference(
    converter: Any, field: ma.fields.Field[Any], ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """OpenAPI 3.0's `{"allOf": [ref], "nullable": true}` for a nested schema that may be null, instead of
    apispec's `anyOf` with an untyped object, which generated clients turn into an untyped dict."""
    choices = ret.get("anyOf", [])
    references = [choice for choice in choices if "$ref" in choice]
    if not references or {"type": "object", "nullable": True} not in choices:
        return {}
    del ret["anyOf"]
    return {"allOf": references, "nullable": True}


#: ``REDIS_URL`` schemes naming a Redis Cluster (any one node: the client discovers the others) -> the plain scheme.
CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
REDIS_TIMEOUTS = {"socket_connect_timeout": 2, "socket_timeout": 5}
#: Connections to one Redis per process, shared by its requests and streams. Under gevent a burst of greenlets
#: (thousands of streams woken or opened at once) waits for a free one, up to 5 s, instead of failing as
#: redis-py's default pool does past 100.
REDIS_CONNECTIONS = 64


def _redis_client(settings: Mapping[str, Any]) -> redis.Redis | redis.RedisCluster:
    """The configured client: an injected one, Redis or a Redis Cluster at ``REDIS_URL``, or an embedded fakeredis.
    A cluster client learns the cluster's nodes and slots here, so at least one node must answer at start."""
    if settings.get("REDIS_CLIENT") is not None:
        return settings["REDIS_CLIENT"]  # type: ignore[no-any-return]
    url = settings["REDIS_URL"]
    if not url:
        return fakeredis.FakeRedis()
    scheme, _, rest = url.partition("://")
    if scheme in CLUSTER_SCHEMES:
        return redis.RedisCluster.from_url(f"{CLUSTER_SCHEMES[scheme]}://{rest}", **REDIS_TIMEOUTS)
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=5, **REDIS_TIMEOUTS)
    return redis.Redis(connection_pool=pool)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app, configured from the environment then ``config`` (tests pass ``REDIS_CLIENT`` to share one store
    between apps, ``LOBBY_INDEX_KEY`` for a lobby list of their own and ``CLOCK`` to move time by hand)."""
    app = Flask(__name__)
    app.config.update(API_SETTINGS)
    app.config["CLOCK"] = time.time  # epoch seconds; tests inject their own to move time by hand
    app.config.update(from_env())
    app.config.update(config or {})
    app.json = FastJSONProvider(app)
    app.url_map.merge_slashes = False  # `//v1//games` is a 404, not a 308 whose Location is built from Host
    smorest = Api(app)
    smorest.ma_plugin.converter.add_attribute_function(nullable_reference)
    api.register(smorest)
    app.register_blueprint(SWAGGER_UI_ASSETS)
    app.register_blueprint(web.BLUEPRINT)
    register_error_handlers(app)
    app.before_request(cors_preflight)
    app.after_request(secure_headers)
    app.wsgi_app = BoundedChunkedBodies(app)  # type: ignore[method-assign]
    store = GameStore(_redis_client(app.config), app.config["CAS_RETRIES"], app.config["MAX_GAME_BYTES"])
    app.extensions["thegame_store"] = store
    app.extensions["thegame_events"] = Hub(store.client)
    app.extensions["thegame_lobbies"] = LobbyIndex(
        store.client, app.config.get("LOBBY_INDEX_KEY", INDEX_PREFIX), app.config.get("CLOCK", time.time)
    )
    limits.install(app, app.extensions["thegame_store"])
    return app
