"""Options of The Game (spec: "Options"), their presets and their validation.

Each option is described once, in ``OPTIONS`` (the catalog's entries, ``info.INFO``): ``resolve_options`` takes the
keys, bounds and choices it checks from there, and adds the bounds one option puts on another (the turn's minimum
is at most the hand, the minimum after the draw pile at most the turn's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...errors import InvalidSetup
from ...option_table import check_players, checked, option_names, options_dict, preset_matching
from ...protocol import OptionInfo

MIN_PLAYERS, MAX_PLAYERS = 1, 5
MAX_HAND_SIZE = 8
STUCK_POLICIES = ("strict", "try")
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "expert": {"min_per_turn": 3},
    "expert_small_hand": {"min_per_turn": 3, "hand_size_delta": -1},
}
OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo("preset", "str", "standard", "a named set of the options below", choices=tuple(PRESETS)),
    OptionInfo(
        "hand_size",
        "int",
        None,
        "cards in a full hand (default by players: 8 alone, 7 for two, 6 for three to five)",
        min=1,
        max=MAX_HAND_SIZE,
    ),
    OptionInfo(
        "min_per_turn", "int", 2, "cards to place each turn while the draw pile lasts", min=1, max=MAX_HAND_SIZE
    ),
    OptionInfo(
        "min_after_empty", "int", 1, "cards to place each turn once the draw pile is empty", min=1, max=MAX_HAND_SIZE
    ),
    OptionInfo(
        "stuck_policy",
        "str",
        "strict",
        "strict: lost as soon as the turn's minimum is out of reach; try: only when no legal play is left",
        choices=STUCK_POLICIES,
    ),
)
_OPTION = {option.name: option for option in OPTIONS}
#: Keys a caller may set besides ``preset``.
OPTION_KEYS = tuple(name for name in _OPTION if name != "preset")
_DEFAULTS = {name: _OPTION[name].default for name in OPTION_KEYS}


def default_hand_size(players: int) -> int:
    """8 cards alone, 7 for two players, 6 for three to five (spec: Options)."""
    return {1: 8, 2: 7}.get(players, 6)


@dataclass(frozen=True, slots=True)
class Options:
    """Resolved rules of one game; ``preset`` names the preset they match, if any."""

    players: int
    hand_size: int
    min_per_turn: int = _OPTION["min_per_turn"].default
    min_after_empty: int = _OPTION["min_after_empty"].default
    stuck_policy: str = _OPTION["stuck_policy"].default

    @property
    def preset(self) -> str | None:
        return preset_of(self)

    def to_dict(self) -> dict[str, Any]:
        return options_dict(self, _FIELDS, self.preset)


_FIELDS = option_names(Options)


@lru_cache(maxsize=256)  # every view names the preset; a few dozen distinct options exist in practice
def preset_of(options: Options) -> str | None:
    """The preset these options match, if any."""
    return preset_matching(options, PRESETS, resolve_options)


def _int_in(name: str, value: Any, high: int) -> int:
    """``value`` if it is an integer from the option's ``min`` to ``high`` (the option's own ``max`` or a bound another
    option sets), else ``InvalidSetup``."""
    low = _OPTION[name].min or 0
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidSetup(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return value


def resolve_options(players: Any, options: Mapping[str, Any] | None = None) -> Options:
    """Validate ``players`` and ``options`` (a preset, then individual overrides) into ``Options``.

    Unknown keys and out-of-range values raise ``InvalidSetup`` rather than being ignored,
    so a typo never silently plays a different game.
    """
    players = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    if options is None:  # the standard game, and the common case
        return Options(players, default_hand_size(players))
    if not isinstance(options, Mapping):
        raise InvalidSetup(f"options must be an object of option names to values, got {options!r}")
    options = dict(options)
    if options.pop("players", players) != players:  # Options.to_dict() echoes players back
        raise InvalidSetup(f"options.players disagrees with players={players}")
    unknown = sorted(set(options) - {"preset", *OPTION_KEYS})
    if unknown:
        raise InvalidSetup(f"unknown option(s): {', '.join(map(str, unknown))}")
    preset_name = options.pop("preset", None) or "standard"
    if preset_name not in PRESETS:
        raise InvalidSetup(f"unknown preset {preset_name!r}; presets: {', '.join(PRESETS)}")
    preset = dict(PRESETS[preset_name])
    hand_size = default_hand_size(players) + preset.pop("hand_size_delta", 0)
    merged: dict[str, Any] = {**_DEFAULTS, "hand_size": hand_size, **preset, **options}
    hand_size = _int_in("hand_size", merged["hand_size"], MAX_HAND_SIZE)
    min_per_turn = _int_in("min_per_turn", merged["min_per_turn"], hand_size)
    min_after_empty = _int_in("min_after_empty", merged["min_after_empty"], min_per_turn)
    stuck_policy = checked(_OPTION["stuck_policy"], merged["stuck_policy"])
    return Options(players, hand_size, min_per_turn, min_after_empty, stuck_policy)
