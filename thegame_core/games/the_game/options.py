"""Options of The Game (spec: "Options"), their presets and their validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...errors import InvalidSetup
from ...option_table import check_players, option_names, options_dict, preset_matching

MIN_PLAYERS, MAX_PLAYERS = 1, 5
MAX_HAND_SIZE = 8
STUCK_POLICIES = ("strict", "try")
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "expert": {"min_per_turn": 3},
    "expert_small_hand": {"min_per_turn": 3, "hand_size_delta": -1},
}
#: Keys a caller may set besides ``preset``.
OPTION_KEYS = ("hand_size", "min_per_turn", "min_after_empty", "stuck_policy")


def default_hand_size(players: int) -> int:
    """8 cards alone, 7 for two players, 6 for three to five (spec: Options)."""
    return {1: 8, 2: 7}.get(players, 6)


@dataclass(frozen=True, slots=True)
class Options:
    """Resolved rules of one game; ``preset`` names the preset they match, if any."""

    players: int
    hand_size: int
    min_per_turn: int = 2
    min_after_empty: int = 1
    stuck_policy: str = "strict"

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


def _int_in(name: str, value: Any, low: int, high: int) -> int:
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
    merged: dict[str, Any] = {"hand_size": hand_size, **preset, **options}
    hand_size = _int_in("hand_size", merged["hand_size"], 1, MAX_HAND_SIZE)
    min_per_turn = _int_in("min_per_turn", merged.get("min_per_turn", 2), 1, hand_size)
    min_after_empty = _int_in("min_after_empty", merged.get("min_after_empty", 1), 1, min_per_turn)
    stuck_policy = merged.get("stuck_policy", "strict")
    if stuck_policy not in STUCK_POLICIES:
        raise InvalidSetup(f"stuck_policy must be one of {', '.join(STUCK_POLICIES)}, got {stuck_policy!r}")
    return Options(players, hand_size, min_per_turn, min_after_empty, stuck_policy)
