"""The REST service of every registered game: ``create_app(config=None)`` builds the Flask app (``docs/api.md``).

The packages below, by concern (``docs/architecture.md`` draws their arrows): ``http`` (reading requests, errors,
headers, replies) and ``api`` (routes and schemas) are the only ones that know Flask; ``play`` (the rules of a
change: records, commands, idempotency, presenters, tokens), ``clock`` (time: due work, paced bots, deadlines),
``storage`` (Redis: the store, its Lua scripts, caches, the lobby list), ``streams`` (event streams), ``daily``
(daily deals), ``analysis`` (finished games' analyses, worked out on the job queue, ``jobs``) and ``limits`` take plain
values.

The package imports nothing itself, and ``create_app`` is loaded on first use (``service/app.py``): gunicorn's master
imports this package for its configuration (``python:service.gunicorn_conf``) before it forks, and whatever it
imported there would come into each gevent worker unpatched, such as redis-py's retry pause, a ``time.sleep`` bound at
import, which would stop the whole worker (its requests, streams and heartbeat) while Redis is away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
