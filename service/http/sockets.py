"""The connection under a request, for the one answer that writes for long: an event stream."""

from __future__ import annotations

import contextlib
import os
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


#: Where the gevent worker's WSGI wrapper (``service/gunicorn_conf.py``) puts gunicorn's response to the request.
GUNICORN_RESPONSE = "tg.gunicorn_response"


class DirectSocket:
    """A gunicorn response's connection, written around the response while its app waits between two writes: the
    bytes of a stream's events framed as gunicorn frames them (its own choice for the response: chunks to an
    HTTP/1.1 client, nothing to an HTTP/1.0 one), sent without waiting, and counted in the bytes its access log
    shows. Writing a spectator's events from its process's fan-out this way costs a system call, not two switches
    to and from the stream's greenlet and a pass through the server's response (``service/streams/sse.py``,
    ``Parked``)."""

    def __init__(self, response: Any) -> None:
        self._response = response

    def frame(self, data: bytes) -> bytes:
        """``data`` as the response's body carries it (once its headers are sent, which decide its framing)."""
        return b"%X\r\n%s\r\n" % (len(data), data) if self._response.chunked else data

    def send_now(self, framed: bytes) -> int:
        """Write what the socket's buffer takes of ``framed`` at once; how much (0: none, it would wait). Raises
        ``OSError`` when the connection failed or was closed (its descriptor then is -1)."""
        try:
            sent = os.write(self._response.sock.fileno(), framed)
        except BlockingIOError:
            return 0
        self._response.sent += sent
        return sent

    def send_all(self, framed: bytes) -> None:
        """Write ``framed`` in full, waiting as the response's own writes do (the connection's write timeout)."""
        self._response.sock.sendall(framed)
        self._response.sent += len(framed)


def direct_socket(environ: dict[str, Any]) -> DirectSocket | None:
    """The request's connection to write around the response, under gunicorn's gevent workers (whose sockets do not
    block) and HTTP/1; ``None`` elsewhere (another server or worker, a blocking socket, HTTP/2's frames, TLS, whose
    records only the socket's own writes make): the response writes alone."""
    response = environ.get(GUNICORN_RESPONSE)
    if response is None or environ.get("SERVER_PROTOCOL") not in ("HTTP/1.0", "HTTP/1.1"):
        return None
    sock = response.sock
    if hasattr(sock, "cipher") or os.get_blocking(sock.fileno()):
        return None
    return DirectSocket(response)
