"""``python -m service export --day YYYY-MM-DD --out FILE.ndjson.gz``: every game that ended on that day (UTC), one
JSON object a line (``views.export_line``), gzipped; a daily deal only once its own day is over.

It walks the store's games with ``SCAN`` (every master of a Redis Cluster), reading each game once: an operator's
batch job, run once a day, not a request. Read a file back with ``thegame_core.export.read_lines``.
"""

from __future__ import annotations

import argparse
import gzip
from collections.abc import Iterator
from datetime import date

import redis

from ..daily.days import day_of_ms
from ..json_text import dump_bytes
from ..records.game_record import CorruptRecord, GameRecord
from ..storage.store import text
from .index import ended_ms
from .views import export_line, exportable

PATTERN = "tg:{*}:game"
BATCH = 200


def ended_on(client: redis.Redis | redis.RedisCluster, day: date, now: float) -> Iterator[bytes]:
    """The export line of each game that ended on ``day`` and may be exported at ``now``, with its newline."""
    for key in client.scan_iter(match=PATTERN, count=BATCH):
        name = str(text(key))
        meta, state = (text(value) for value in client.hmget(name, ["meta", "state"]))
        try:
            record = GameRecord.load(meta, state)
        except CorruptRecord:
            continue
        if record is not None and exportable(record, now) and day_of_ms(ended_ms(record)) == day:
            yield dump_bytes(export_line(name.split("{", 1)[1].rsplit("}", 1)[0], record)) + b"\n"


def write(client: redis.Redis | redis.RedisCluster, day: date, out: str, now: float) -> int:
    """Write the day's lines to ``out`` (gzipped when it ends in ``.gz``); how many games it holds."""
    count = 0
    opener = gzip.open if out.endswith(".gz") else open
    with opener(out, "wb") as sink:
        for line in ended_on(client, day, now):
            sink.write(line)
            count += 1
    return count


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m service export", description=__doc__.split("\n\n")[0])
    parser.add_argument("--day", required=True, type=date.fromisoformat, help="YYYY-MM-DD (UTC)")
    parser.add_argument("--out", required=True, help="the file to write (FILE.ndjson.gz: gzipped)")
    return parser
