"""``python -m service``: serve on $HOST:$PORT (default 127.0.0.1:8000); embedded store unless REDIS_URL is set."""

from __future__ import annotations

from . import config, create_app


def main() -> None:
    create_app().run(host=config.host(), port=config.port(), threaded=True)


if __name__ == "__main__":
    main()
