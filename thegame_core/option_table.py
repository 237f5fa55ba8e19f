"""Options described once as a table of ``OptionInfo``, checked and resolved the same way by every game that uses it.

A game lists its options (``OptionInfo``: type, default, choices or bounds) and its presets; ``resolve`` turns what
a caller gives (a preset, then individual overrides) into the game's own options object, refusing unknown keys and
bad values with ``InvalidSetup`` rather than ignoring them, so a typo never silently plays a different game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

from .errors import InvalidSetup
from .protocol import OptionInfo

T = TypeVar("T")


def checked(option: OptionInfo, value: Any) -> Any:
    """``value`` if it is allowed for ``option`` (exact JSON types: a bool is not an int), else ``InvalidSetup``."""
    if option.type == "bool":
        if type(value) is not bool:
            raise InvalidSetup(f"{option.name} must be true or false, got {value!r}")
    elif option.type == "int":
        if value is None and option.default is None:
            return value
        low, high = option.min or 0, option.max
        if type(value) is not int or value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"from {low} (or null: no limit)"
            raise InvalidSetup(f"{option.name} must be an integer {bounds}, got {value!r}")
    elif type(value) is not str or value not in (option.choices or ()):
        raise InvalidSetup(f"{option.name} must be one of {', '.join(option.choices or ())}, got {value!r}")
    return value


def resolve(
    players: int,
    options: Mapping[str, Any],
    table: tuple[OptionInfo, ...],
    presets: Mapping[str, Mapping[str, Any]],
    build: Callable[..., T],
) -> T:
    """``build(players, **values)`` from ``options`` (a preset, default ``"standard"``, then overrides), each value
    checked against ``table``. ``options`` may echo ``players`` back (an options object's ``to_dict()``)."""
    if not isinstance(options, Mapping):
        raise InvalidSetup(f"options must be an object of option names to values, got {options!r}")
    values = dict(options)
    echoed = values.pop("players", players)
    if type(echoed) is not int or echoed != players:
        raise InvalidSetup(f"options.players disagrees with players={players}")
    by_name = {option.name: option for option in table}
    unknown = sorted(map(str, set(values) - {"preset", *by_name}))
    if unknown:
        raise InvalidSetup(f"unknown option(s): {', '.join(unknown)}; options: {', '.join(by_name)}")
    preset_name = values.pop("preset", None)
    if preset_name is None:
        preset_name = "standard"
    if type(preset_name) is not str or preset_name not in presets:
        raise InvalidSetup(f"unknown preset {preset_name!r}; presets: {', '.join(presets)}")
    merged = {**presets[preset_name], **values}
    return build(players, **{name: checked(by_name[name], value) for name, value in merged.items()})


def check_players(players: Any, low: int, high: int) -> int:
    """``players`` if it is an integer from ``low`` to ``high`` (not a bool), else ``InvalidSetup``."""
    if type(players) is not int or not low <= players <= high:
        raise InvalidSetup(f"players must be an integer from {low} to {high}, got {players!r}")
    return players


def option_names(options_class: type) -> tuple[str, ...]:
    """The fields of a game's options dataclass that are options (``players`` first), not derived ones."""
    return tuple(option.name for option in fields(options_class) if option.init)


def options_dict(options: Any, names: tuple[str, ...], preset: str | None) -> dict[str, Any]:
    """Options as JSON (every view and snapshot holds them): each of ``names``, read field by field (``asdict``
    deep-copies at several times the cost), then the preset they match."""
    return {**{name: getattr(options, name) for name in names}, "preset": preset}


def preset_matching(
    options: T, presets: Iterable[str], resolve_options: Callable[[int, Mapping[str, Any]], T]
) -> str | None:
    """The first of ``presets`` that resolves to exactly ``options``, if any (a game caches the answer: every view
    names it)."""
    players: int = options.players  # type: ignore[attr-defined]
    return next((name for name in presets if resolve_options(players, {"preset": name}) == options), None)
