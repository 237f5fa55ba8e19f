"""Health for operators and orchestrators: liveness (the process answers: restart it when it does not) apart from
readiness (the store answers and may not evict games: send it traffic only then), so that a Redis outage never gets
a healthy web process restarted; and the guard that refuses every other request while the store may evict."""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from .context import runtime
from .documented import documented
from .ops_schemas import HealthSchema, LiveSchema

blp = Blueprint("health", __name__, url_prefix="/v1", description="Liveness and readiness")


def ready() -> dict[str, Any]:
    """The store answers and never evicts keys (``503 store_unavailable`` / ``503 store_may_evict`` otherwise)."""
    guard = runtime().eviction
    guard.check()
    refusal = guard.refusal()
    if refusal is not None:
        raise refusal
    return {"status": "ok", "store": "redis" if current_app.config["REDIS_URL"] else "embedded"}


@blp.route("/health/live")
class Live(MethodView):
    @blp.response(200, LiveSchema)
    @documented(blp, "live", security=[], store=False)
    def get(self) -> dict[str, Any]:
        """Liveness: `200` while the process serves requests, whatever the store's state (it is not asked)."""
        return {"status": "ok"}


@blp.route("/health/ready")
class Ready(MethodView):
    @blp.response(200, HealthSchema)
    @documented(blp, "ready", security=[])
    def get(self) -> dict[str, Any]:
        """Readiness: `200` when the store answers and never evicts keys; `503 store_unavailable` when it does not
        answer, `503 store_may_evict` when its `maxmemory-policy` is not `noeviction`."""
        return ready()


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @documented(blp, "health", security=[])
    def get(self) -> dict[str, Any]:
        """Readiness, as `/v1/health/ready` (this route came first and stays)."""
        return ready()


#: Routes that answer while the store may evict: liveness, the readiness checks (which check again), the metrics.
CHECKING = {"health.Live", "health.Ready", "health.Health", "metrics"}


def refuse_if_evicting() -> None:
    """Before every request: ``503 store_may_evict`` while the store's last check found an evicting policy."""
    refusal = runtime().eviction.refusal()
    if refusal is not None and request.endpoint not in CHECKING:
        raise refusal
