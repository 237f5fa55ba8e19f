"""gunicorn's own refusals in the contract's shape (``gunicorn_conf.Worker``): the requests gunicorn cannot read
(a request line past ``limit_request_line``: 414; too many or too long header fields: 431; a NUL or another
invalid character in a header, a bad request line or ``Content-Length``: 400) are refused before the app sees
them, and gunicorn's own answer is an HTML page without ``nosniff`` or a content policy."""

from __future__ import annotations

from http import HTTPStatus

from .. import json_text
from ..errors import error_body
from .headers import API_POLICY

#: gunicorn's statuses -> the contract's codes; any other is ``bad_request`` (4xx) or ``internal_error`` (5xx).
CODES = {414: "uri_too_long", 431: "headers_too_large", 403: "forbidden"}
#: gunicorn's own messages are not passed on: they may quote the client's bytes.
MESSAGES = {
    "uri_too_long": "the request line is too long",
    "headers_too_large": "too many header fields, or one too long",
    "forbidden": "request forbidden",
    "bad_request": "the request is not valid HTTP (its request line or a header field)",
    "internal_error": "unexpected server error",
}


def json_error(status: int) -> bytes:
    """The whole HTTP answer of gunicorn's ``status``: the error body, as JSON no browser may sniff or frame."""
    error = CODES.get(status, "bad_request" if status < 500 else "internal_error")
    body = json_text.dump_bytes(error_body(error, MESSAGES[error], status))
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nConnection: close\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
        f"Content-Security-Policy: {API_POLICY}\r\nCache-Control: no-store\r\n\r\n"
    )
    return head.encode("latin-1") + body
