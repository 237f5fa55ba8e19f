"""The rules as players read them: every game's in every language the page speaks, one source each
(``docs/rules/``), with the same sections in each language and no rule-book codes; served by the page's blueprint
as its other files are; and shipped in the wheel the Docker image builds from only what its Dockerfile copies."""

from __future__ import annotations

import fnmatch
import gzip
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import thegame_core as tg
from service.web import LANGUAGES, PAGE_POLICY, RULES

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs" / "rules"
EVERY = [(game, lang) for game in tg.game_names() for lang in LANGUAGES]
#: A rule-book code such as N7.3 or C10: the library's cross-references, which mean nothing to a player.
CODE = re.compile(r"\b[BCNT]\d+(\.\d+)*\b")


def source(game: str, lang: str) -> Path:
    return DOCS / LANGUAGES[lang].format(game=game)


def sections(text: str) -> list[str]:
    """The ``##`` headings of a markdown text, outside code blocks."""
    outside = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return [line for line in outside.splitlines() if line.startswith("## ")]


@pytest.mark.parametrize(("game", "lang"), EVERY)
def test_every_game_has_its_rules_in_every_language_starting_in_short(game: str, lang: str) -> None:
    text = source(game, lang).read_text(encoding="utf-8")
    assert text.startswith("# ") and sections(text)[0] == {"en": "## In short", "fr": "## En bref"}[lang]
    assert not CODE.search(text), CODE.search(text)


@pytest.mark.parametrize("game", tg.game_names())
def test_a_game_s_rules_have_the_same_sections_in_every_language(game: str) -> None:
    counts = {lang: len(sections(source(game, lang).read_text(encoding="utf-8"))) for lang in LANGUAGES}
    assert len(set(counts.values())) == 1 and counts["en"] >= 5, counts


def test_the_served_folder_is_the_one_source() -> None:
    """In the source tree ``service/web/rules`` is ``docs/rules`` itself: no second copy to keep in step."""
    assert RULES.resolve() == DOCS.resolve()


@pytest.mark.parametrize(("game", "lang"), EVERY)
def test_the_rules_are_served_as_markdown_gzipped_and_revalidated(http: FlaskClient, game: str, lang: str) -> None:
    plain = http.get(f"/web/rules/{lang}/{game}.md")
    assert plain.status_code == 200 and plain.data == source(game, lang).read_bytes()
    assert plain.mimetype == "text/markdown" and plain.mimetype_params["charset"] == "utf-8"
    assert plain.headers["Content-Security-Policy"] == PAGE_POLICY and plain.headers["Cache-Control"] == "no-cache"
    packed = http.get(f"/web/rules/{lang}/{game}.md", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and gzip.decompress(packed.data) == plain.data
    again = http.get(f"/web/rules/{lang}/{game}.md", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(
    "path",
    [
        "/web/rules/de/ninja.md",
        "/web/rules/en/chess.md",
        "/web/rules/fr/ninja.fr.md",
        "/web/rules/en/bataille_corse.md",
        "/web/rules/en/%2e%2e.md",
        "/web/rules/en/ninja",
    ],
)
def test_unknown_rules_are_a_typed_not_found(http: FlaskClient, path: str) -> None:
    answer = http.get(path)
    assert answer.status_code == 404 and answer.json is not None and answer.json["error"] == "not_found"
    assert answer.json["message"]


def docker_context(target: Path) -> Path:
    """What the Dockerfile's ``COPY`` lines put in its work folder, from the build context ``.dockerignore``
    leaves: symbolic links stay links, as Docker copies them."""
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()]

    def dropped(path: Path) -> bool:
        """The last pattern matching the path or a folder above it decides (``!`` takes a path back)."""
        parts = path.relative_to(ROOT).parts
        ancestors = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
        verdict = False
        for pattern in ignored:
            if any(fnmatch.fnmatch(each, pattern.removeprefix("!")) for each in ancestors):
                verdict = not pattern.startswith("!")
        return verdict

    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            *sources, destination = line.split()[1:]
            for each in map(ROOT.joinpath, sources):
                if each.is_dir():
                    shutil.copytree(
                        each,
                        target / destination,
                        symlinks=True,
                        ignore=lambda folder, names: [name for name in names if dropped(Path(folder, name))],
                    )
                elif not dropped(each):
                    (target / destination).mkdir(parents=True, exist_ok=True)
                    shutil.copy2(each, target / destination)
    return target


def test_the_wheel_the_docker_image_builds_ships_every_game_s_rules(tmp_path: Path) -> None:
    context = docker_context(tmp_path / "app")
    assert (context / "service" / "web" / "rules").is_symlink()
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(context)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as shipped:
        for game, lang in EVERY:
            name = f"service/web/rules/{LANGUAGES[lang].format(game=game)}"
            assert shipped.read(name) == source(game, lang).read_bytes(), name
