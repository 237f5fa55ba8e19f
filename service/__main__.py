"""``python -m service``: serve on $HOST:$PORT (default 127.0.0.1:8000); embedded store unless REDIS_URL is set."""

from __future__ import annotations

from werkzeug.serving import WSGIRequestHandler

from . import config, create_app


class PathOnlyLog(WSGIRequestHandler):
    """Logs each request line without its query string, which may hold an event stream's ``?token=``."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        path, self.path = self.path, self.path.partition("?")[0]  # what werkzeug logs
        try:
            super().log_request(code, size)
        finally:
            self.path = path


def main() -> None:
    create_app().run(host=config.host(), port=config.port(), threaded=True, request_handler=PathOnlyLog)


if __name__ == "__main__":
    main()
