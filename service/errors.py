"""The contract's errors: ``ApiError`` with a stable ``error`` code, and the HTTP status each code answers.

Every failure a client can cause becomes an ``ApiError`` (raised anywhere below the routes, which need no Flask to
do so); ``service/http/errors.py`` turns it, and every other failure, into the uniform error body.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import thegame_core as tg

#: Stable error code -> HTTP status (the contract's table, plus the codes this service adds).
STATUS_OF: dict[str, int] = {
    "malformed_json": 400,
    "bad_request": 400,
    "invalid_token": 401,
    "forbidden": 403,
    "rated_needs_player": 403,
    "unknown_game": 404,
    "not_found": 404,
    "not_on_board": 404,
    "unknown_player": 404,
    "method_not_allowed": 405,
    "game_over": 409,
    "game_not_started": 409,
    "game_started": 409,
    "game_full": 409,
    "seat_taken": 409,
    "seats_free": 409,
    "seat_free": 409,
    "seat_left": 409,
    "game_not_over": 409,
    "rematch_exists": 409,
    "not_your_turn": 409,
    "game_too_large": 409,
    "daily_not_over": 409,
    "not_analysable": 409,
    "already_seated": 409,
    "already_pairing": 409,
    "pairing_lobby": 409,
    "rated_no_bots": 409,
    "link_code_used": 410,
    "link_code_expired": 410,
    "stale_version": 412,
    "body_too_large": 413,
    "uri_too_long": 414,
    "unsupported_media_type": 415,
    "validation_error": 422,
    "card_not_in_hand": 422,
    "illegal_play": 422,
    "minimum_not_reached": 422,
    "idempotency_key_reused": 422,
    "invalid_action": 422,
    "signal_unchanged": 422,
    "daily_in_future": 422,
    "link_code_invalid": 422,
    "game_not_rated": 422,
    "rate_limited": 429,
    "too_many_streams": 429,
    "headers_too_large": 431,
    "internal_error": 500,
    "store_unavailable": 503,
    "store_busy": 503,
    "store_may_evict": 503,
    "capacity": 503,
    "catching_up": 503,
}


def error_body(error: str, message: str, status: int | None = None, errors: Any = None) -> dict[str, Any]:
    """The uniform error body ``{code, status, message, error, errors?}``; ``status`` follows from ``error``
    unless given."""
    code = STATUS_OF.get(error, 422) if status is None else status
    body: dict[str, Any] = {"code": code, "status": HTTPStatus(code).phrase, "message": message, "error": error}
    if errors is not None:
        body["errors"] = errors
    return body


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
