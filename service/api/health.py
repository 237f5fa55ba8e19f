"""Health: the process answers and the store is reachable (503 store_unavailable otherwise)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from .context import runtime
from .documented import documented
from .schemas import HealthSchema

blp = Blueprint("health", __name__, url_prefix="/v1", description="Liveness and store reachability")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @documented(blp, "health", security=[])
    def get(self) -> dict[str, Any]:
        """`200` when the store answers a ping; `503 store_unavailable` when it does not."""
        runtime().store.ping()
        return {"status": "ok", "store": "redis" if current_app.config["REDIS_URL"] else "embedded"}
