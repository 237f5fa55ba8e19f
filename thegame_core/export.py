"""Reading an export of a game service back: one JSON object a line (NDJSON, gzipped when the file ends in
``.gz``), each with its game's ``replay`` record, so that ``thegame_core.replay(line["replay"])`` rebuilds the game
offline (and ``thegame_core.deal_matches`` checks its deal against its ``seed``)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def read_lines(path: str | Path) -> Iterator[dict[str, Any]]:
    """Each line of an export file, parsed; blank lines are skipped."""
    for line in _raw_lines(str(path)):
        if line.strip():
            yield json.loads(line)


def _raw_lines(name: str) -> Iterator[bytes]:
    if name.endswith(".gz"):
        with gzip.open(name, "rb") as unzipped:
            yield from unzipped
    else:
        with open(name, "rb") as plain:
            yield from plain
