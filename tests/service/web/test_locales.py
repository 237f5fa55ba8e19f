"""The page's message files (``service/web/static/locales/<lang>/<namespace>.json``): every language has the same keys
(each plural with the forms its language's plural rules ask for) and the same ``{{placeholders}}`` per key; every
game, option, choice, bot and outcome of the catalog has its words in every language; every key the page's modules
name is in the files."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.web import STATIC

LOCALES = STATIC / "locales"
LANGUAGES = sorted(path.name for path in LOCALES.iterdir())
NAMESPACES = ["page", "games"]
#: The plural categories each language's ``Intl.PluralRules`` answers for whole numbers (CLDR).
PLURALS = {"en": {"one", "other"}, "fr": {"one", "many", "other"}}
PLURAL = re.compile(r"_(zero|one|two|few|many|other)$")
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def flat(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Nested keys as dotted paths: ``{"a": {"b": "x"}}`` -> ``{"a.b": "x"}``."""
    found: dict[str, str] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            found.update(flat(value, f"{path}."))
        else:
            assert isinstance(value, str) and value.strip(), f"{path}: words must be a non-empty string"
            found[path] = value
    return found


def words(lang: str, namespace: str) -> dict[str, str]:
    return flat(json.loads((LOCALES / lang / f"{namespace}.json").read_text(encoding="utf-8")))


def bases(keys: dict[str, str]) -> dict[str, set[str]]:
    """Each key without its plural suffix -> the plural forms it has (empty for a key without plural)."""
    found: dict[str, set[str]] = {}
    for key in keys:
        match = PLURAL.search(key)
        found.setdefault(PLURAL.sub("", key), set()).update({match.group(1)} if match else set())
    return found


def test_the_page_speaks_english_and_french() -> None:
    assert LANGUAGES == ["en", "fr"] == sorted(PLURALS)


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_key_is_in_every_language_with_its_plural_forms_and_placeholders(namespace: str) -> None:
    english = words("en", namespace)
    for lang in LANGUAGES:
        found = words(lang, namespace)
        forms = bases(found)
        assert set(forms) == set(bases(english)), f"{lang}/{namespace}: keys differ from English's"
        for key, plurals in forms.items():
            assert plurals in (set(), PLURALS[lang]), f"{lang}/{namespace}: {key} has the forms {sorted(plurals)}"
        for key, text in found.items():
            same = english.get(key) or english[f"{PLURAL.sub('', key)}_other"]
            assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(same)) | {"count"}, f"{lang}: {key}"


def test_every_key_the_page_names_is_in_the_files() -> None:
    """``t("...")`` with a literal key in the page's modules: the key (or its plural or context forms) exists."""
    known = {namespace: set(bases(words("en", namespace))) for namespace in NAMESPACES}
    scripts = [path for path in STATIC.rglob("*.js") if "locales" not in path.parts]
    named = {key for path in scripts for key in re.findall(r"\bt\(\s*\"([\w:.-]+)\"", path.read_text(encoding="utf-8"))}
    assert len(named) > 100
    for key in named:
        namespace, path = key.split(":", 1) if ":" in key else ("page", key)
        assert path in known[namespace] or f"{path}_you" in known[namespace], key


def missing_words(game: dict[str, Any], known: set[str]) -> list[str]:
    """The words the page shows of ``game`` (a catalog entry) that ``known`` (a language's keys) lacks."""
    name = game["name"]
    paths = ["title", "pitch"]
    for option in game["options"]:
        paths += [f"options.{option['name']}.{part}" for part in ("label", "help")]
        paths += [f"options.{option['name']}.values.{choice}" for choice in option.get("choices") or []]
    paths += [f"bots.{bot}.{part}" for bot in game["bots"] for part in ("name", "about")]
    paths += [f"outcomes.{reason}" for reason in game["outcome_reasons"]]
    return [path for path in paths if f"{name}.{path}" not in known and f"shared.{path}" not in known]


def test_every_word_of_the_catalog_has_words_in_every_language(http: FlaskClient) -> None:
    """The lobby and the tables show the catalog's games, options, choices, bots and outcomes by the files' words,
    never by the catalog's names: a game or an option added to the catalog fails here until it has words."""
    catalog = http.get("/v1/games/catalog").get_json()["games"]
    for lang in LANGUAGES:
        known = set(bases(words(lang, "games")))
        for game in catalog:
            assert missing_words(game, known) == [], f"{lang}, {game['name']}"


def test_french_uses_the_rule_sheets_words() -> None:
    """The French of the rule sheets: tas, taper, suite, sandwich, poisson, pioche, poser."""
    french = " ".join(words("fr", "games").values()).lower()
    for word in ("tas", "taper", "suite", "sandwich", "poisson", "pioche", "poser", "tentative", "ramasser"):
        assert re.search(rf"\b{word}", french), word


def test_the_first_load_carries_one_language() -> None:
    """``i18n.js`` loads only the active language's files: no file names another language."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    assert "/web/locales/${lang}/${namespace}.json" in text
    assert not re.search(r"locales/(en|fr)/", text)
