"""Request bodies sent in chunks, bounded like declared ones."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import IO, Any

from flask import Flask


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
