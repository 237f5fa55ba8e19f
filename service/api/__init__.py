"""One flask-smorest Blueprint per resource."""

from __future__ import annotations

from flask_smorest import Api

from . import actions, events, games, health, log, seats, the_game
from .game_schemas import components

BLUEPRINTS = (games.blp, seats.blp, actions.blp, the_game.blp, log.blp, events.blp, health.blp)


def register(api: Api) -> None:
    for name, schema in components().items():
        api.spec.components.schema(name, schema)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
