"""Flask's answers written by ``json_text`` (orjson, with ``json`` for what it refuses)."""

from __future__ import annotations

from typing import Any

from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

from ..json_text import dump_bytes


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with ``dump_bytes`` for answers (``jsonify``, ending with a newline as Flask's do);
    reading as Flask does."""

    def response(self, *args: Any, **kwargs: Any) -> Response:
        document = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dump_bytes(document) + b"\n", mimetype=self.mimetype)  # type: ignore[arg-type]
