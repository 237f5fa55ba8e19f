"""JSON text for answers, events and stored records: orjson writes it several times faster than ``json``.

A change writes JSON three times (the record, the answer, and its event for every open stream), a large share of
its CPU with ``json``. orjson refuses two things ``json`` writes: integers beyond 64 bits (a client may send
one where no bound applies) and lone surrogates (``"\\ud800"`` in a name); those documents are written by
``json`` instead, as before. Reading stays with ``json``: orjson reads integers beyond 64 bits as floats, and
a record must read back exactly as it was written.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

#: Seat numbers key some maps: written as strings, as ``json`` does. Dataclasses and datetimes, which orjson would
#: write and ``json`` refuses, go to ``json`` too: a document holds JSON's types only, or fails loudly as before.
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def dump_bytes(document: Any) -> bytes:
    """Compact JSON text of ``document`` (dicts, lists, strings, numbers, booleans and ``None``)."""
    try:
        return orjson.dumps(document, option=_OPTIONS)
    except TypeError:  # an integer beyond 64 bits or a lone surrogate: json writes them (anything else, it refuses)
        return json.dumps(document, separators=(",", ":")).encode()


def dumps(document: Any) -> str:
    return dump_bytes(document).decode()
