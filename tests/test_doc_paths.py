"""Every repository path that README.md and docs/ name exists: in inline code, in code blocks and in links; and
docs/architecture.md's tree of the core lists what the core holds.

A path counts when it starts with a top-level entry of the repository (``thegame_core/...``, ``service/...``,
``bench/...``, ``Dockerfile``...): moving or renaming a file then fails here until the docs follow. Links are
relative to their document. ``python:package.module`` (gunicorn's config by module) names a module file. Patterns
(``<game>``, ``*``, ``{id}``, ``$VAR``) are not paths.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: What the repository holds at its top; tools' folders (the virtualenv, caches, git's own) aside.
TOOLS = re.compile(r"\.venv|\.git|\..*_cache|\.hypothesis|.*\.egg-info|__pycache__")
TOP = {entry.name for entry in ROOT.iterdir() if not TOOLS.fullmatch(entry.name)}

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
WORD = re.compile(r"[^\s'\"(),;=`|]+")
PATTERN = re.compile(r"[<>*{}$\[\]]")


def named_paths(text: str) -> set[str]:
    """The words of ``text`` that start like a repository path (``python:`` modules as their files)."""
    found = set()
    for word in WORD.findall(text):
        word = word.rstrip(".:")
        if word.startswith("python:"):
            word = word.removeprefix("python:").replace(".", "/") + ".py"
        if PATTERN.search(word) or "://" in word:
            continue
        if word.split("/")[0] in TOP:
            found.add(word.split(":")[0].split("#")[0])  # file.py:12, file.md#section
    return found


def code_paths(document: Path) -> set[str]:
    """Paths named in the code of ``document`` (relative to the repository's root)."""
    text = document.read_text()
    blocks = FENCE.findall(text)
    inline = INLINE.findall(FENCE.sub("", text))
    return set().union(*(named_paths(code) for code in [*blocks, *inline]))


def link_paths(document: Path) -> set[Path]:
    """The files ``document`` links to in this repository (relative links; anchors and web addresses aside)."""
    targets = (target.split("#")[0] for target in LINK.findall(document.read_text()))
    return {(document.parent / target).resolve() for target in targets if target and "://" not in target}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_path_a_document_names_exists(document: Path) -> None:
    missing = sorted(path for path in code_paths(document) if not (ROOT / path).exists())
    assert not missing, f"{document.relative_to(ROOT)} names paths that do not exist: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_of_a_document_leads_to_a_file(document: Path) -> None:
    missing = sorted(str(path) for path in link_paths(document) if not path.exists())
    assert not missing, f"{document.relative_to(ROOT)} links to files that do not exist: {missing}"


def test_the_check_knows_a_path_from_a_word() -> None:
    text = "see `service/store.py:12`, `thegame_core/games/<game>/`, python:service.gunicorn_conf and `make run`"
    assert named_paths(text) == {"service/store.py", "service/gunicorn_conf.py"}
    assert named_paths("`thegame_core/the_game/codec.py`") == {"thegame_core/the_game/codec.py"}


TREE_ENTRY = re.compile(r"( *)([\w.]+/?)(?:  |$)")


def core_tree() -> set[str]:
    """The paths of docs/architecture.md's tree of ``thegame_core/`` (two spaces of indent a level; an entry is a
    file or ``folder/`` followed by two spaces or nothing; deeper lines continue a description)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    block = next(block for block in FENCE.findall(text) if block.startswith("thegame_core/\n"))
    folders: list[str] = []
    paths = set()
    for line in block.splitlines():
        entry = TREE_ENTRY.match(line)
        if entry is None or len(entry.group(1)) > 2 * len(folders):
            continue  # a description going on
        del folders[len(entry.group(1)) // 2 :]
        path = "".join(folders) + entry.group(2)
        paths.add(path)
        if path.endswith("/"):
            folders.append(entry.group(2))
    return paths


def test_the_architecture_tree_lists_the_core_as_it_is() -> None:
    tree = core_tree()
    assert {"thegame_core/", "thegame_core/client/", "thegame_core/games/the_game/bots/"} <= tree
    assert sorted(path for path in tree if not (ROOT / path).exists()) == []
    core = ROOT / "thegame_core"
    listed = {
        f"{entry.relative_to(ROOT)}" + ("/" if entry.is_dir() else "")
        for folder in (core, core / "games")
        for entry in folder.iterdir()
        if entry.suffix == ".py" or (entry / "__init__.py").is_file()
    }
    assert sorted(listed - tree) == [], "docs/architecture.md's tree of the core misses these"
