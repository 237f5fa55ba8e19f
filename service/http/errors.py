"""The uniform error body ``{code, status, message, error, errors?}`` on every failure.

``ApiError`` answers with its code; Werkzeug's HTTP errors (404 route, 405, 413) and an unreachable store get the
same body, so a client never has to parse HTML or guess a code from a message.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import redis
from flask import Flask, Response, jsonify
from redis.exceptions import RedisClusterException
from werkzeug.exceptions import HTTPException

from .. import metrics
from ..errors import STATUS_OF, ApiError, error_body
from .headers import allowed_methods

log = logging.getLogger(__name__)

#: Werkzeug HTTP errors (raised before a view runs) -> stable code.
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large", 415: "unsupported_media_type"}


def error_response(
    error: str, message: str, errors: dict[str, Any] | None = None, retry_after: int | None = None
) -> Response:
    """The error body; ``Retry-After`` is ``retry_after`` seconds when given, else 1 on a ``503``."""
    status = STATUS_OF.get(error, 422)
    response = jsonify(error_body(error, message, status, errors))
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    if retry_after is not None or status == 503:
        response.headers["Retry-After"] = str(retry_after or 1)
    return response


def _api_error(error: ApiError) -> Response:
    metrics.get().refusals.labels(error.error).inc()
    return error_response(error.error, error.message, error.errors, error.retry_after)


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = _HTTP_CODES.get(status, "bad_request" if status < 500 else "internal_error")
    response = error_response(code, error.description or HTTPStatus(status).phrase)
    methods = allowed_methods() if status == 405 else None
    if methods is not None:
        response.headers["Allow"] = ", ".join(methods)
    return response


def _store_down(error: redis.RedisError | RedisClusterException) -> Response:
    log.warning("store unavailable: %s", type(error).__name__)
    metrics.get().store_errors.inc()
    return error_response("store_unavailable", "the game store cannot be reached; retry later")


def _unexpected(error: Exception) -> Response:
    log.exception("unexpected error")
    return error_response("internal_error", "unexpected server error")


def register_error_handlers(app: Flask) -> None:
    """Install the handlers after flask-smorest's, so ours answer every HTTP error."""
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(redis.RedisError, _store_down)
    app.register_error_handler(RedisClusterException, _store_down)  # a cluster none of whose nodes answers
    app.register_error_handler(Exception, _unexpected)
