"""The connection under a request, for the one answer that writes for long: an event stream."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable
from typing import Any

#: A stream's kernel send buffer (bytes; Linux doubles it): events are small, and a socket left to the kernel's
#: tuning held up to 4 MB for a reader that never read (on loopback), all of it written before a write would wait.
SEND_BUFFER = 32 * 1024
#: Where servers put the client's socket in the WSGI environ: gunicorn, and werkzeug's development server.
SOCKET_KEYS = ("gunicorn.socket", "werkzeug.socket")


def bound_writes(environ: dict[str, Any], seconds: float) -> Callable[[], None]:
    """From now on each write to the request's connection must complete within ``seconds``, else it fails and the
    server closes the connection, and the connection's send buffer is ``SEND_BUFFER``: a reader that does not read
    holds a greenlet, a socket and a bounded kernel buffer, and for that long only, not for the stream's whole
    lifetime. Answers what gives the connection its former timeout back
    (a keep-alive connection then waits for its next request as it did). Under a server that hands the app no
    socket, nothing changes."""
    sock = next((environ[key] for key in SOCKET_KEYS if environ.get(key) is not None), None)
    if sock is None:
        return lambda: None
    former = sock.gettimeout()
    sock.settimeout(seconds)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    def restore() -> None:
        with contextlib.suppress(OSError):  # the connection was closed under the stream
            sock.settimeout(former)

    return restore
