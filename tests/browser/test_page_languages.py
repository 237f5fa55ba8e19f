"""The page in French and in English: a French browser (``locale="fr-FR"``) sees a French page, with no English
words of the message files nor of the catalog on any screen of a whole game of each game (the lobby, the table
move by move, the end, the replay); a person's choice of language is remembered."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.person import MOST_MOVES, Person, messages
from tests.browser.sites import production

#: Split a message around its ``{{placeholders}}``: the fixed words between them.
PLACEHOLDER = re.compile(r"\{\{\s*\w+\s*\}\}")
FLIP = "#table button[data-key='flip']"


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def strings(tree: Any) -> list[str]:
    if isinstance(tree, dict):
        return [text for value in tree.values() for text in strings(value)]
    return [tree] if isinstance(tree, str) else []


def english_words(catalog: list[dict[str, Any]]) -> set[str]:
    """What a French page must never show: the English files' fixed words where French says otherwise (at least
    four letters, none of them found in the French files), and the catalog's English descriptions and raw names."""
    french = "\n".join(strings(messages("fr")))
    found = {
        piece.strip(" .:,;()“”!?")
        for text in strings(messages("en"))
        for piece in PLACEHOLDER.split(text)
        if text not in french
    }
    found = {piece for piece in found if len(piece) >= 4 and piece not in french and re.search("[a-z]{3}", piece)}
    for game in catalog:
        for option in game["options"]:
            found |= {option["description"], *(choice for choice in option.get("choices") or [] if "_" in choice)}
            found |= {option["name"]} if "_" in option["name"] else set()
        found |= set(game["outcome_reasons"].values()) | set(game["errors"].values())
    return found


def assert_french(person: Person, english: set[str]) -> None:
    shown = person.page.locator("html").get_attribute("lang"), person.shown_text()
    assert shown[0] == "fr"
    leaks = sorted(words for words in english if re.search(rf"(?<!\w){re.escape(words)}(?!\w)", shown[1]))
    assert leaks == [], leaks


def catalog(person: Person) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(person.page.request.get(f"{person.url}/v1/games/catalog").text())["games"]
    return games


def open_the_replay_to_its_end(person: Person) -> None:
    person.page.get_by_role("link", name=person.say("game.open_replay")).click()
    person.button(person.say("replay.end")).click()
    expect(person.page.locator(".replay .todo")).to_contain_text(person.say("replay.the_end", outcome="").rstrip(" ."))


def test_a_french_browser_plays_the_game_in_french(person: Callable[..., Person]) -> None:
    ann = person(locale="fr-FR").open()
    english = english_words(catalog(ann))
    assert_french(ann, english)
    expect(ann.page.get_by_role("heading", name="Nouvelle partie")).to_be_visible()
    bot = ann.say("lobby.seat_bot", level=ann.say("games:the-game.bots.random.name"))
    ann.create("The Game", 2, [ann.say("lobby.seat_you"), bot], {"Cartes en main": "2", "Graine": "12"})
    for _ in range(MOST_MOVES):
        if not ann.wait_turn_or_end(Person.THE_GAME_TURN):
            break
        expect(ann.page.locator("#todo")).to_contain_text("À vous")
        assert_french(ann, english)
        ann.the_game_turn()
    expect(ann.page.locator(".outcome h3")).to_have_text("Partie perdue")
    assert_french(ann, english)
    open_the_replay_to_its_end(ann)
    assert_french(ann, english)
    ann.assert_clean()


def test_a_french_browser_plays_ninja_in_french(person: Callable[..., Person]) -> None:
    ann = person(locale="fr-FR").open()
    english = english_words(catalog(ann))
    bot = ann.say("lobby.seat_bot", level=ann.say("games:ninja.bots.greedy.name"))
    options = {"Nombre de tours au plus": "12", "Graine": "3", "Rythme des bots (ms)": "0"}
    ann.create("Ninja", 2, [ann.say("lobby.seat_you"), bot], options)
    expect(ann.page.locator("#todo")).to_contain_text("Échange")
    assert_french(ann, english)
    ann.button(ann.say("games:ninja.moves.ready")).click()
    for move in range(MOST_MOVES):
        if not ann.wait_turn_or_end(Person.NINJA_MOVE):
            break
        if move % 3 == 0:
            assert_french(ann, english)
        ann.ninja_move()
    expect(ann.page.locator(".outcome h3")).to_contain_text("gagné")
    assert_french(ann, english)
    open_the_replay_to_its_end(ann)
    assert_french(ann, english)
    ann.assert_clean()


def test_a_french_browser_plays_bataille_corse_in_french(person: Callable[..., Person]) -> None:
    ann = person(locale="fr-FR").open()
    english = english_words(catalog(ann))
    bot = ann.say("lobby.seat_bot", level=ann.say("games:bataille-corse.bots.best.name"))
    options = {"Nombre de cartes retournées au plus": "14", "Graine": "2", "Rythme des bots (ms)": "600"}
    ann.create("Bataille corse", 2, [ann.say("lobby.seat_you"), bot], options)
    page = ann.page
    expect(page.locator(FLIP)).to_be_visible()
    expect(page.get_by_role("img", name="4 de trèfle")).to_be_visible()
    before = ann.version()
    page.keyboard.press(" ")  # a false slap: its result in French
    ann.wait_past(before)
    expect(page.locator(".moves li").first).to_have_text("Vous avez tapé : fausse tape, une pénalité")
    assert_french(ann, english)
    for _ in range(MOST_MOVES):
        if not ann.wait_turn_or_end(FLIP):
            break
        assert_french(ann, english)
        before = ann.version()
        page.locator(FLIP).click()
        ann.wait_past(before)
    expect(page.locator(".outcome h3")).to_contain_text("gagné")
    assert_french(ann, english)
    open_the_replay_to_its_end(ann)
    assert_french(ann, english)
    ann.assert_clean()


def test_the_language_switch_is_remembered(person: Callable[..., Person]) -> None:
    ann = person(locale="en-GB").open()
    page = ann.page
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Nouvelle partie")).to_be_visible()
    expect(page.get_by_role("button", name="Français")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_label("Votre nom")).to_have_value("Ann")
    page.reload()
    expect(page.get_by_role("heading", name="Nouvelle partie")).to_be_visible()
    assert page.title().startswith("Jeux de cartes")
    ann.assert_clean()
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
