"""Every ```python block of README.md runs as written (the shell blocks: tests/service/test_docs.py).

The blocks run in order in one namespace, as a reader typing them into one session would: the
bots block plays on the game that the library block created.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """Each ```python block of ``text`` with the number of the line its code starts on."""
    return [(text.count("\n", 0, match.start(1)) + 1, match.group(1)) for match in PYTHON_BLOCK.finditer(text)]


def test_the_readme_has_python_blocks() -> None:
    assert len(python_blocks(README.read_text())) >= 2  # the library and the bots


def test_the_readme_python_blocks_run() -> None:
    namespace: dict[str, object] = {"__name__": "readme"}
    for line, code in python_blocks(README.read_text()):
        # padded so that a traceback names the README's own line numbers
        exec(compile("\n" * (line - 1) + code, str(README), "exec"), namespace)
