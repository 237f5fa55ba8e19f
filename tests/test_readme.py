"""Every ```python block of README.md is a doctest: it runs as written and prints what the README shows.

The blocks run in order in one namespace, as a reader typing them into one session would: the bots block plays
on the games that the earlier blocks created. (The shell blocks: tests/service/api/test_docs.py.)
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
WALKTHROUGH = Path(__file__).resolve().parents[1] / "examples" / "README.md"  # adding a game, step by step
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """Each ```python block of ``text`` with the number of the line its code starts on."""
    return [(text.count("\n", 0, match.start(1)) + 1, match.group(1)) for match in PYTHON_BLOCK.finditer(text)]


def test_every_python_block_shows_its_output() -> None:
    blocks = python_blocks(README.read_text())
    assert len(blocks) >= 3  # the library, Ninja, the bots
    for line, code in blocks:
        assert code.lstrip().startswith(">>> "), f"README.md line {line}: a doctest session, with its output"


def run_blocks(document: Path) -> tuple[int, int]:
    """Run ``document``'s Python blocks as one session: (failed, tried) examples."""
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace: dict[str, object] = {"__name__": "readme"}
    for line, code in python_blocks(document.read_text()):
        test = parser.get_doctest(code, namespace, document.name, str(document), line - 1)
        runner.run(test, clear_globs=False)
        namespace = test.globs  # a doctest runs on a copy: the next block goes on from this one's names
    return runner.summarize(verbose=False)


def test_the_readme_python_blocks_print_what_they_show() -> None:
    failed, tried = run_blocks(README)
    assert tried >= 30
    assert failed == 0, "README.md's examples print something else (the report above shows what)"


def test_the_walkthrough_of_adding_a_game_runs_as_written() -> None:
    failed, tried = run_blocks(WALKTHROUGH)
    assert tried >= 10
    assert failed == 0, "examples/README.md prints something else (the report above shows what)"
