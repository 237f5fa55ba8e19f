"""Routes and schemas: one flask-smorest Blueprint per resource, and the OpenAPI document they make."""

from __future__ import annotations

from typing import Any

import flask_smorest
import marshmallow as ma
from flask import Flask, redirect
from werkzeug.wrappers import Response

from . import actions, analysis, daily, events, games, health, leaderboards, log, pairing, players, seats, the_game
from .game_schemas import components
from .schemas import ErrorSchema

API_SETTINGS = {
    "API_TITLE": "Card Table",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "v1/openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",  # served from swagger-ui-bundle: /docs works offline
    "API_SPEC_OPTIONS": {
        "info": {
            "description": "Card Table, an open service for card games played by people and bots over HTTP: The "
            "Game (Steffen Benndorf's cooperative game), Ninja (a shedding game) and Bataille corse (Egyptian "
            "Ratscrew, with real-time slaps). "
            "GET /v1/games/catalog describes every game. Guide: docs/api.md."
        },
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    },
}

BLUEPRINTS = (
    games.blp,
    seats.blp,
    actions.blp,
    the_game.blp,
    log.blp,
    analysis.blp,
    events.blp,
    health.blp,
    daily.blp,
    players.blp,
    leaderboards.blp,
    pairing.blp,
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


def register(app: Flask) -> None:
    """The routes and their OpenAPI document (served at ``/v1/openapi.json``, Swagger UI at ``/docs``)."""
    app.config.update(API_SETTINGS)
    api = Api(app)
    api.ma_plugin.converter.add_attribute_function(nullable_reference)
    for name, schema in components().items():
        api.spec.components.schema(name, schema)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    app.add_url_rule("/openapi.json", "openapi_json", openapi_elsewhere)


def openapi_elsewhere() -> Response:
    """``/openapi.json``, where tools look first, sends them to the versioned document (outside the document)."""
    return redirect("/v1/openapi.json", 301)
