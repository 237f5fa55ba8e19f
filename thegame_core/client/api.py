"""The HTTP calls a seat's client makes (``docs/api.md``), over ``urllib``: JSON in and out, typed errors.

A refusal of the service becomes ``ApiError`` with its stable ``error`` code; anything that kept the request
from being answered (refused connection, reset, timeout, a cut answer) is one of ``NETWORK_ERRORS``, after
which the same request may be retried.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["NETWORK_ERRORS", "Api", "ApiError"]

#: What a lost connection raises: ``URLError``, ``TimeoutError`` and resets are ``OSError``s; a cut answer is an
#: ``HTTPException``; a body cut inside its JSON is a ``ValueError``.
NETWORK_ERRORS = (OSError, http.client.HTTPException, ValueError)

#: Refusals worth retrying after a pause: the store is busy or unreachable, or the caller is rate limited.
RETRYABLE = frozenset({429, 502, 503, 504})


class ApiError(Exception):
    """A refusal of the service: HTTP ``status``, the stable ``code`` (``error`` of the body) and its message."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.status in RETRYABLE


@dataclass(frozen=True)
class Api:
    """One game of one server, as one caller (``token``: a seat's, or ``None``)."""

    base: str  # the server's root, e.g. http://127.0.0.1:8000
    game_id: str
    token: str | None = None
    timeout: float = 30.0

    @property
    def game_url(self) -> str:
        return f"{self.base.rstrip('/').removesuffix('/v1')}/v1/games/{urllib.parse.quote(self.game_id, safe='')}"

    def with_token(self, token: str) -> Api:
        return Api(self.base, self.game_id, token, self.timeout)

    def call(self, method: str, path: str = "", body: Any = None, headers: Mapping[str, str] | None = None) -> Any:
        """The JSON answer of ``method`` on the game's ``path`` (``None`` for an empty one, as ``204``);
        ``ApiError`` for a refusal."""
        data = None if body is None else json.dumps(body).encode()
        request = self._request(self.game_url + path, method, headers, data)
        with self._open(request, self.timeout) as response:
            answer = response.read()
            return json.loads(answer) if answer else None

    def stream(self, last_event_id: str, read_timeout: float) -> http.client.HTTPResponse:
        """The open event stream (``Last-Event-ID``: the last event seen, if any); reads time out after
        ``read_timeout`` seconds without a byte."""
        headers = {"Accept": "text/event-stream"} | ({"Last-Event-ID": last_event_id} if last_event_id else {})
        return self._open(self._request(self.game_url + "/events", "GET", headers, None), read_timeout)

    def _request(
        self, url: str, method: str, headers: Mapping[str, str] | None, data: bytes | None
    ) -> urllib.request.Request:
        request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token is not None:
            request.add_header("Authorization", f"Bearer {self.token}")
        return request

    @staticmethod
    def _open(request: urllib.request.Request, timeout: float) -> http.client.HTTPResponse:
        try:
            response: http.client.HTTPResponse = urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            raise _api_error(error) from None
        return response


def _api_error(error: urllib.error.HTTPError) -> ApiError:
    """The typed error of an error answer (a proxy's non-JSON page keeps its status, with code ``http_<status>``)."""
    try:
        body = json.loads(error.read())
        code, message = str(body["error"]), str(body.get("message", ""))
    except (*NETWORK_ERRORS, KeyError, TypeError):
        code, message = f"http_{error.code}", str(error.reason)
    retry_after = error.headers.get("Retry-After", "")
    return ApiError(error.code, code, message, float(retry_after) if retry_after.isdigit() else None)
