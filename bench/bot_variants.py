"""Bot variants named on a simulator command line: ``base@field=value@...`` (``best@rollouts=200@swap=0``)."""

from __future__ import annotations

from collections.abc import Iterator


def variants(argv: list[str], base: str) -> Iterator[tuple[str, dict[str, str]]]:
    """Each ``base@field=value@...`` named in ``argv`` (in comma-separated lists of bots): its name and fields."""
    for word in argv:
        for name in word.split(","):
            if name.startswith(f"{base}@"):
                yield name, dict(pair.split("=") for pair in name.split("@")[1:])
