"""The REST service of every registered game: ``create_app(config=None)`` builds the Flask app (``docs/api.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import fakeredis
import flask_smorest
import marshmallow as ma
import redis
import swagger_ui_bundle
from flask import Blueprint, Flask

from . import api
from .api.schemas import ErrorSchema
from .config import from_env
from .errors import register_error_handlers
from .store import GameStore

__all__ = ["create_app"]

API_SETTINGS = {
    "API_TITLE": "The Game service",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "v1/openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",  # served from swagger-ui-bundle: /docs works offline
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "An open game service for the card games of our rule books: The Game (Steffen "
            "Benndorf) and Ninja. GET /v1/games/catalog describes every game. Guide: docs/api.md."
        },
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    },
}


#: Swagger UI's scripts and styles, from the installed bundle rather than a CDN the user may not reach.
SWAGGER_UI_ASSETS = Blueprint(
    "swagger_ui_assets", __name__, static_folder=swagger_ui_bundle.swagger_ui_path, static_url_path="/docs/assets"
)


class Api(flask_smorest.Api):  # type: ignore[misc]
    """flask-smorest with this service's error body in the spec."""

    ERROR_SCHEMA = ErrorSchema


def nullable_reference(
    converter: Any, field: ma.fields.Field[Any], ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """OpenAPI 3.0's `{"allOf": [ref], "nullable": true}` for a nested schema that may be null, instead of
    apispec's `anyOf` with an untyped object, which generated clients turn into an untyped dict."""
    choices = ret.get("anyOf", [])
    references = [choice for choice in choices if "$ref" in choice]
    if not references or {"type": "object", "nullable": True} not in choices:
        return {}
    del ret["anyOf"]
    return {"allOf": references, "nullable": True}


def _redis_client(settings: Mapping[str, Any]) -> redis.Redis:
    """The configured client: an injected one, Redis at ``REDIS_URL``, or an embedded fakeredis."""
    if settings.get("REDIS_CLIENT") is not None:
        return settings["REDIS_CLIENT"]  # type: ignore[no-any-return]
    if settings["REDIS_URL"]:
        return redis.Redis.from_url(settings["REDIS_URL"], socket_connect_timeout=2, socket_timeout=5)
    return fakeredis.FakeRedis()


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app, configured from the environment then ``config`` (tests pass ``REDIS_CLIENT``
    to share one store between apps)."""
    app = Flask(__name__)
    app.config.update(API_SETTINGS)
    app.config.update(from_env())
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    smorest = Api(app)
    smorest.ma_plugin.converter.add_attribute_function(nullable_reference)
    api.register(smorest)
    app.register_blueprint(SWAGGER_UI_ASSETS)
    register_error_handlers(app)
    app.extensions["thegame_store"] = GameStore(_redis_client(app.config), app.config["CAS_RETRIES"])
    return app
