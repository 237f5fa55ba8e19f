"""The uniform error body ``{code, status, message, error, errors?}`` and its HTTP mapping.

Every failure a client can cause becomes an ``ApiError`` with a stable ``error`` code from the contract's
table; Werkzeug's HTTP errors (404 route, 405, 413) and an unreachable store get the same body, so a client
never has to parse HTML or guess a code from a message.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import redis
from flask import Flask, Response, jsonify
from redis.exceptions import RedisClusterException
from werkzeug.exceptions import HTTPException

import thegame_core as tg

log = logging.getLogger(__name__)

#: Stable error code -> HTTP status (the contract's table, plus the codes this service adds).
STATUS_OF: dict[str, int] = {
    "malformed_json": 400,
    "bad_request": 400,
    "invalid_token": 401,
    "forbidden": 403,
    "unknown_game": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "game_over": 409,
    "game_not_started": 409,
    "game_started": 409,
    "game_full": 409,
    "seat_taken": 409,
    "seats_free": 409,
    "not_your_turn": 409,
    "game_too_large": 409,
    "stale_version": 412,
    "body_too_large": 413,
    "unsupported_media_type": 415,
    "validation_error": 422,
    "card_not_in_hand": 422,
    "illegal_play": 422,
    "minimum_not_reached": 422,
    "idempotency_key_reused": 422,
    "invalid_action": 422,
    "signal_unchanged": 422,
    "rate_limited": 429,
    "internal_error": 500,
    "store_unavailable": 503,
    "store_busy": 503,
    "capacity": 503,
    "catching_up": 503,
}

#: Werkzeug HTTP errors (raised before a view runs) -> stable code.
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large", 415: "unsupported_media_type"}


class ApiError(Exception):
    """A client-visible failure: ``error`` is the stable code, ``status`` follows from it (a game's own rule
    codes, which this table does not list, are 422); ``retry_after``: seconds for the ``Retry-After`` header."""

    def __init__(
        self, error: str, message: str, errors: dict[str, Any] | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.error = error
        self.status = STATUS_OF.get(error, 422)
        self.message = message
        self.errors = errors
        self.retry_after = retry_after


def from_game_error(error: tg.GameError) -> ApiError:
    """A core error by its kind: game over and not your turn are conflicts (409); a malformed action is
    ``invalid_action`` and a rule error keeps its game's code (422), so a new game's codes reach clients as they
    are; a refused setup or bot is a validation error."""
    if isinstance(error, tg.GameOver | tg.NotYourTurn | tg.InvalidAction | tg.IllegalAction):
        return ApiError(error.code, error.message)
    return ApiError("validation_error", error.message, {"_schema": [error.message]})


def error_response(
    error: str, message: str, errors: dict[str, Any] | None = None, retry_after: int | None = None
) -> Response:
    """The error body; ``Retry-After`` is ``retry_after`` seconds when given, else 1 on a ``503``."""
    status = STATUS_OF.get(error, 422)
    body: dict[str, Any] = {"code": status, "status": HTTPStatus(status).phrase, "message": message, "error": error}
    if errors is not None:
        body["errors"] = errors
    response = jsonify(body)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    if retry_after is not None or status == 503:
        response.headers["Retry-After"] = str(retry_after or 1)
    return response


def _api_error(error: ApiError) -> Response:
    return error_response(error.error, error.message, error.errors, error.retry_after)


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = _HTTP_CODES.get(status, "bad_request" if status < 500 else "internal_error")
    response = error_response(code, error.description or HTTPStatus(status).phrase)
    for name, value in error.get_headers():
        if name == "Allow":
            response.headers[name] = value
    return response


def _store_down(error: redis.RedisError | RedisClusterException) -> Response:
    log.warning("store unavailable: %s", type(error).__name__)
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
