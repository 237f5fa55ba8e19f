"""Health: the process answers and the store is reachable and may not evict games (503 otherwise); and the guard
that refuses every other request while the store may evict."""

from __future__ import annotations

from typing import Any

from flask import current_app, request
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
        """`200` when the store answers and never evicts keys; `503 store_unavailable` when it does not answer,
        `503 store_may_evict` when its `maxmemory-policy` is not `noeviction`."""
        guard = runtime().eviction
        guard.check()
        refusal = guard.refusal()
        if refusal is not None:
            raise refusal
        return {"status": "ok", "store": "redis" if current_app.config["REDIS_URL"] else "embedded"}


#: Routes that answer while the store may evict: the health checks, which check again.
CHECKING = {"health.Health"}


def refuse_if_evicting() -> None:
    """Before every request: ``503 store_may_evict`` while the store's last check found an evicting policy."""
    refusal = runtime().eviction.refusal()
    if refusal is not None and request.endpoint not in CHECKING:
        raise refusal
