"""Bataille corse's options (every **[OPT]** of the rules, plus ``max_flips``), presets and validation.

Each option is described once, in ``OPTIONS``; the resolved ``Options`` and the catalog entries both come from
that table. What the rules derive from the options (which two-card combinations slap) is worked out once per
distinct options into fields that are not options (not compared, not in ``to_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...option_table import check_players, option_names, options_dict, preset_matching, resolve
from ...protocol import OptionInfo
from .rules import pair_table

MIN_PLAYERS, MAX_PLAYERS = 2, 8
#: The most flips a game may be given: a whole game of that many flips, its slaps included, fits a stored record.
MAX_FLIPS = 10_000
#: The longest collection window (ms): longer would hold the pile still for a visible moment after every slap.
MAX_SLAP_WINDOW_MS = 1000
EXHAUSTED_PAYER = ("borrow", "transfer_to_next")
PENALTY_PLACES = ("bottom", "top_face_up")
COMBINATIONS = ("double", "sandwich", "suite", "sum10", "product10", "poisson")

OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo("jokers", "bool", False, "play with the two jokers (RJ, BJ): 54 cards; a joker is an honour of 5 tries"),
    OptionInfo("wrap_K_A", "bool", False, "a king and an ace also make a suite"),
    OptionInfo(
        "exhausted_payer",
        "str",
        "borrow",
        "a payer whose packet runs out: borrow flips the next cards of the next seat holding cards; "
        "transfer_to_next passes the attempts left to that seat",
        choices=EXHAUSTED_PAYER,
    ),
    OptionInfo(
        "penalty_place",
        "str",
        "bottom",
        "where a false slap's cards go: face down under the pile, inert (bottom), or face up on top, where they "
        "count in combinations but open no challenge (top_face_up)",
        choices=PENALTY_PLACES,
    ),
    OptionInfo("penalty_count", "int", 3, "cards a seat holding cards pays for a false slap", min=0, max=10),
    OptionInfo(
        "lone_player_auto_collect",
        "bool",
        False,
        "once a single seat holds cards, it collects the pile at once (ending the game); otherwise it flips on and "
        "the others may still slap back in",
    ),
    OptionInfo("double", "bool", True, "slap on two cards of the same rank on top (two jokers count)"),
    OptionInfo("sandwich", "bool", True, "slap on the top card's rank repeated under a different middle card"),
    OptionInfo("suite", "bool", True, "slap on two numeric cards whose values follow each other (A-2 .. Q-K)"),
    OptionInfo("sum10", "bool", True, "slap when two or more top cards, all A..9, add up to 10"),
    OptionInfo("product10", "bool", True, "slap on 2 and 5, or ace and 10, on top"),
    OptionInfo("poisson", "bool", True, "slap on 6 and 9 on top"),
    OptionInfo(
        "max_flips",
        "int",
        MAX_FLIPS,
        "the game ends (flip_limit) after this many flips; ranking by cards held",
        min=1,
        max=MAX_FLIPS,
    ),
    OptionInfo(
        "slap_window_ms",
        "int",
        0,
        "0: slaps are judged as they are applied, the first applied wins. Above 0: the first slap on a pile version "
        "opens a window of this many ms in which the slaps on that version are gathered (answered pending, no flip "
        "meanwhile); when it closes they are judged by the server's receive time, the earliest received first",
        min=0,
        max=MAX_SLAP_WINDOW_MS,
    ),
)
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "classic": {"suite": False, "sum10": False, "product10": False, "poisson": False},  # doubles and sandwiches
}


@dataclass(frozen=True, slots=True)
class Options:
    """Resolved rules of one game. ``pairs`` is derived (``rules.pair_table``), not an option."""

    players: int
    jokers: bool = False
    wrap_K_A: bool = False
    exhausted_payer: str = "borrow"
    penalty_place: str = "bottom"
    penalty_count: int = 3
    lone_player_auto_collect: bool = False
    double: bool = True
    sandwich: bool = True
    suite: bool = True
    sum10: bool = True
    product10: bool = True
    poisson: bool = True
    max_flips: int = MAX_FLIPS
    slap_window_ms: int = 0
    pairs: tuple[tuple[bool, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pairs = pair_table(self.double, self.suite, self.wrap_K_A, self.product10, self.poisson)
        object.__setattr__(self, "pairs", pairs)

    @property
    def cards(self) -> int:
        return 54 if self.jokers else 52

    @property
    def preset(self) -> str | None:
        return preset_of(self)

    def to_dict(self) -> dict[str, Any]:
        return options_dict(self, _DICT_FIELDS, self.preset)


_DICT_FIELDS = option_names(Options)
_DEFAULTS = {players: Options(players) for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


@lru_cache(maxsize=256)
def preset_of(options: Options) -> str | None:
    """The preset these options match, if any."""
    return preset_matching(options, PRESETS, resolve_options)


def resolve_options(players: Any, options: Mapping[str, Any] | None = None) -> Options:
    """Validate ``players`` and ``options`` (a preset, then overrides) into ``Options`` (``InvalidSetup`` otherwise)."""
    players = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    if options is None:
        return _DEFAULTS[players]
    return resolve(players, options, OPTIONS, PRESETS, Options)
