"""The Lua scripts Redis runs for us, kept as ``.lua`` files beside this module (``lua/``), read once."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def lua(*names: str) -> str:
    """The text of the scripts ``names`` (``"gcra"`` for ``lua/gcra.lua``), joined in order: a script that calls
    a shared function names the function's file first."""
    folder = resources.files(__package__) / "lua"
    return "\n".join((folder / f"{name}.lua").read_text(encoding="utf-8") for name in names)
