"""One flask-smorest Blueprint per resource."""

from __future__ import annotations

from flask_smorest import Api

from . import games, health, log, plays, seats, signals

BLUEPRINTS = (games.blp, seats.blp, plays.blp, signals.blp, log.blp, health.blp)


def register(api: Api) -> None:
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
