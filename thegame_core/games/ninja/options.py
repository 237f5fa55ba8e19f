"""Ninja's options (every **[OPT]** of the spec, plus ``max_turns``), their presets and their validation.

Each option is described once, in ``OPTIONS``; the resolved ``Options`` and the catalog entries
(``OptionInfo``) both come from that table, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from ...option_table import check_players, option_names, options_dict, preset_matching, resolve
from ...protocol import OptionInfo
from .cards import HIGHEST, MAX_COPIES
from .rules import group_legal

MIN_PLAYERS, MAX_PLAYERS = 2, 6
LOBBY_MAX_PLAYERS = 5  # N2: 2-5 by default, 6 allowed (with an empty stock)
MAX_TURNS_LIMIT = 1_000_000

SKIP_MODES = ("cap", "modulo")
GIVE_LEADERS = ("last_layer", "next_after_original_giver", "next_after_target")
PICKUP_LEADERS = ("last_layer", "next_after_picker")
TABLE_MODES = ("draw_into_hand", "play_from_table")
NINJA_MODES = ("transparent", "reset")
SIX_MODES = ("must_le", "may_le")

OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo(
        "max_cards_per_play",
        "int",
        None,
        "most cards in one group (N5): null for no limit (the default; four at once burn), "
        "an integer from 1, e.g. 3 (the seed's literal text)",
        min=1,
    ),
    OptionInfo("voluntary_pickup", "bool", False, "may pick up the pile even when holding a legal group (N6)"),
    OptionInfo(
        "play_to_last",
        "bool",
        False,
        "a seat out of cards leaves and play goes on until one seat is left, the loser (N7.3); "
        "otherwise the first seat out wins and the game ends",
    ),
    OptionInfo(
        "burner_leads", "bool", True, "the seat that burns the pile with a 9 leads the next pile; else the next seat"
    ),
    OptionInfo(
        "skip_mode",
        "str",
        "cap",
        "k 8s skip the next k other seats; cap: at most all the others, so the placer plays again; "
        "modulo: count on around the table (N7.7)",
        choices=SKIP_MODES,
    ),
    OptionInfo(
        "give_optional",
        "bool",
        False,
        "after a 13 the placer may decline to give (a give without target): the 13 stays and the next seat plays",
    ),
    OptionInfo(
        "any_player_may_counter",
        "bool",
        False,
        "any seat but the giver may counter a give with 13s or 1s, out of turn; only the target may accept (N8)",
    ),
    OptionInfo(
        "after_give_leader",
        "str",
        "last_layer",
        "who leads after a target accepts the pile: the final giver, the seat after the giver who started "
        "the chain, or the seat after the target (N8)",
        choices=GIVE_LEADERS,
    ),
    OptionInfo(
        "single_completion",
        "bool",
        False,
        "three of a kind on top also opens a completion window, closed by the last copy alone (N9)",
    ),
    OptionInfo(
        "table_mode",
        "str",
        "draw_into_hand",
        "draw_into_hand: face-up then face-down cards refill the hand once the stock is empty (N10); "
        "play_from_table: classic Palace, they are played from the table, face-down blind",
        choices=TABLE_MODES,
    ),
    OptionInfo(
        "after_pickup_leader",
        "str",
        "last_layer",
        "who leads after a pick-up: the seat that last placed a card on the pile, or the seat after the picker (N11)",
        choices=PICKUP_LEADERS,
    ),
    OptionInfo(
        "ninja_mode",
        "str",
        "transparent",
        "transparent: the next group must beat the card under the NINJA; reset: anything may follow a NINJA",
        choices=NINJA_MODES,
    ),
    OptionInfo(
        "ninja_out_of_turn",
        "bool",
        False,
        "NINJA may also be played out of turn while a seat is to play (never during a give); "
        "the turn then passes to the seat after its player",
    ),
    OptionInfo(
        "ninja_breaks_run", "bool", True, "a NINJA breaks a run of equal cards (four of a kind, completion pairs)"
    ),
    OptionInfo("strict_one", "bool", False, "a 1 may be played only on an empty pile or on a 13 (ambiguity 5)"),
    OptionInfo("thirteen_on_six", "bool", False, "a 13 may be played on a 6"),
    OptionInfo("nine_anywhere", "bool", False, "a 9 may be played on any pile, a 6 included"),
    OptionInfo(
        "six_mode",
        "str",
        "must_le",
        "must_le: the group after a 6 must be 6 or lower; may_le: it may also be higher (the 6 resets)",
        choices=SIX_MODES,
    ),
    OptionInfo(
        "max_turns",
        "int",
        2000,
        "the game ends (turn_limit) once this many in-turn plays and pick-ups were made; ranking by fewest cards held",
        min=1,
        max=MAX_TURNS_LIMIT,
    ),
)
OPTION_KEYS = tuple(option.name for option in OPTIONS)
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "classic_palace": {"table_mode": "play_from_table", "after_pickup_leader": "next_after_picker"},
}


#: What the hot paths read of the options beyond the options themselves, by the options it depends
#: on: every game builds its ``Options``, few distinct ones exist.
_DERIVED: dict[tuple[Any, ...], tuple[Any, ...]] = {}


@dataclass(frozen=True, slots=True)
class Options:
    """Resolved rules of one game; ``preset`` names the preset they match, if any.

    The fields after ``max_turns`` are derived, for the hot paths (``engine``, ``legal``) to read in
    one step: not options (not given, compared, shown or in ``to_dict``).
    """

    players: int
    max_cards_per_play: int | None = None
    voluntary_pickup: bool = False
    play_to_last: bool = False
    burner_leads: bool = True
    skip_mode: str = "cap"
    give_optional: bool = False
    any_player_may_counter: bool = False
    after_give_leader: str = "last_layer"
    single_completion: bool = False
    table_mode: str = "draw_into_hand"
    after_pickup_leader: str = "last_layer"
    ninja_mode: str = "transparent"
    ninja_out_of_turn: bool = False
    ninja_breaks_run: bool = True
    strict_one: bool = False
    thirteen_on_six: bool = False
    nine_anywhere: bool = False
    six_mode: str = "must_le"
    max_turns: int = 2000
    #: ``plays_on[ref][value]``: ``rules.group_legal(value, ref)`` worked out once (0: no reference), read
    #: through ``rules.legal_values``.
    plays_on: tuple[tuple[bool, ...], ...] = field(init=False, repr=False, compare=False)
    limit: int = field(init=False, repr=False, compare=False)  # ``max_cards_per_play`` as a number
    #: Whether table cards are played from the table (classic Palace) rather than drawn into the hand.
    from_table: bool = field(init=False, repr=False, compare=False)
    reset: bool = field(init=False, repr=False, compare=False)  # ninja_mode == "reset"
    #: Whether a seat may act out of turn other than to complete (a NINJA, a counter).
    out_of_turn: bool = field(init=False, repr=False, compare=False)
    #: ``turn_memo[seat][top][hand]``: a cache of ``legal.legal_actions`` for a seat to play (``legal``
    #: fills it), shared by every ``Options`` of the same rules: hands repeat from turn to turn and game to game.
    turn_memo: tuple[tuple[dict[Any, Any], ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = (
            self.max_cards_per_play, self.table_mode, self.ninja_mode, self.ninja_out_of_turn,
            self.any_player_may_counter, self.strict_one, self.thirteen_on_six, self.nine_anywhere, self.six_mode,
            self.voluntary_pickup,
        )  # fmt: skip
        derived = _DERIVED.get(key)
        if derived is None:
            derived = _DERIVED[key] = (
                tuple(
                    tuple(group_legal(value, ref or None, self) for value in range(HIGHEST + 1))
                    for ref in range(HIGHEST + 1)
                ),
                MAX_COPIES if self.max_cards_per_play is None else self.max_cards_per_play,
                self.table_mode == "play_from_table",
                self.ninja_mode == "reset",
                self.ninja_out_of_turn or self.any_player_may_counter,
                tuple(tuple({} for _ in range(HIGHEST + 2)) for _ in range(MAX_PLAYERS)),
            )
        for name, value in zip(_DERIVED_FIELDS, derived, strict=True):
            object.__setattr__(self, name, value)

    @property
    def preset(self) -> str | None:
        return preset_of(self)

    @property
    def group_limit(self) -> int:
        """``max_cards_per_play`` as a number (no limit: more than any group can hold)."""
        return self.limit

    def to_dict(self) -> dict[str, Any]:
        return options_dict(self, _DICT_FIELDS, self.preset)


_DICT_FIELDS = option_names(Options)
_DERIVED_FIELDS = tuple(option.name for option in fields(Options) if not option.init)
#: The default options of each player count, built once: every game without options asks for them.
_DEFAULTS = {players: Options(players) for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


@lru_cache(maxsize=256)  # every view names the preset; few distinct options exist in practice
def preset_of(options: Options) -> str | None:
    """The preset these options match, if any."""
    return preset_matching(options, PRESETS, resolve_options)


def resolve_options(players: Any, options: Mapping[str, Any] | None = None) -> Options:
    """Validate ``players`` and ``options`` (a preset, then individual overrides) into ``Options``.

    Unknown keys and bad values raise ``InvalidSetup`` rather than being ignored, so a typo never
    silently plays a different game. ``Options.to_dict()`` is accepted back (its ``players`` must agree).
    """
    players = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    if options is None:
        return _DEFAULTS[players]
    return resolve(players, options, OPTIONS, PRESETS, Options)
