"""A game's rules ("How to play", ``#/rules/<game>``) read in a real browser, in the browser's language: the
"In short" part first, then the contents, followed by a link or by the keyboard to a section, and "Back" to where
the reader came from; on a phone with nothing wider than the screen, axe clean in both languages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

import thegame_core as tg
from tests.browser.person import DESKTOP, PHONE, Person
from tests.client.live import server
from tests.service.servers import ROOT

#: What a reader of each language sees: the browser's locale, the rules' title and sections, the page's words.
READERS = {
    "en": {
        "locale": "en-GB",
        "title": "Ninja: rules",
        "short": "In short",
        "section": "The end of the game",
        "slug": "the-end-of-the-game",
        "back": "Back",
        "contents": "Contents",
    },
    "fr": {
        "locale": "fr-FR",
        "title": "Ninja : règles",
        "short": "En bref",
        "section": "Fin de la partie",
        "slug": "fin-de-la-partie",
        "back": "Retour",
        "contents": "Sommaire",
    },
}
SHOTS = Path(__file__).parent / "screenshots"  # kept out of git (.gitignore): for a person to look at


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with server() as url:
        yield url


@pytest.mark.parametrize("lang", READERS)
def test_a_player_reads_the_rules_in_their_language_and_goes_back(person: Callable[..., Person], lang: str) -> None:
    words = READERS[lang]
    reader = person(locale=words["locale"], viewport=PHONE).open(name=None)
    page = reader.page
    loaded = page.evaluate("performance.getEntriesByType('resource').map((each) => each.name)")
    assert not [name for name in loaded if "rules" in name or "markdown" in name]  # not in the first load
    page.goto(f"{reader.url}/#/rules/ninja")  # as a "How to play" link of the lobby does
    rules = page.get_by_role("article", name=words["title"])
    expect(rules).to_have_attribute("lang", lang)
    expect(page).to_have_title(words["title"])
    expect(page.get_by_role("heading", name=words["title"])).to_be_focused()
    headings = [
        " ".join(text.split()) for text in rules.get_by_role("heading").all_inner_texts()
    ]  # French's no-break spaces
    assert headings[:3] == [words["title"], words["short"], words["contents"]], headings
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing wider than a phone
    reader.assert_clean()

    contents = page.get_by_role("navigation", name=words["contents"])
    contents.get_by_role("link", name=words["section"], exact=True).click()
    section = page.get_by_role("heading", name=words["section"], exact=True)
    expect(section).to_be_focused()
    expect(section).to_be_in_viewport()
    assert page.url.endswith(f"#/rules/ninja/{words['slug']}")

    contents.get_by_role("link", name=words["short"], exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=words["short"], exact=True)).to_be_focused()

    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SHOTS / f"rules-ninja-{lang}-{size['width']}.png", full_page=False)
    reader.assert_clean()

    page.get_by_role("link", name=words["back"], exact=True).click()
    expect(reader.button(reader.say("lobby.create"))).to_be_visible()  # in the page's language
    assert re.search(r"/#?/?$", page.url), page.url


@pytest.mark.parametrize("lang", READERS)
def test_every_game_s_rules_are_drawn_whole_on_a_phone(person: Callable[..., Person], lang: str) -> None:
    """Each file's title, every section, every table and list, as elements: no markdown left in the text."""
    reader = person(locale=READERS[lang]["locale"], viewport=PHONE).open(name=None)
    page = reader.page
    for game in tg.game_names():
        text = (ROOT / "docs" / "rules" / f"{game}{'' if lang == 'en' else '.' + lang}.md").read_text()
        page.goto(f"{reader.url}/#/rules/{game}")
        title = text.splitlines()[0].removeprefix("# ")
        rules = page.get_by_role("article", name=title)
        expect(rules.get_by_role("heading", level=3)).to_have_count(len(re.findall(r"^## ", text, re.M)) + 1)
        expect(rules.get_by_role("table")).to_have_count(len(re.findall(r"^ *\|---", text, re.M)))
        assert not re.search(r"\*\*|`|\]\(|\|", rules.inner_text()), game
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], game
        reader.assert_clean()


def test_rules_opened_from_an_address_show_its_section_and_lead_back_to_the_lobby(
    person: Callable[..., Person],
) -> None:
    reader = person(locale="fr-FR").open("#/rules/bataille-corse/en-bref", name=None)
    page = reader.page
    expect(page.get_by_role("heading", name="En bref", exact=True)).to_be_focused()
    expect(page.get_by_role("table").first).to_contain_text("sandwich")
    reader.assert_clean()
    page.get_by_role("link", name="Retour", exact=True).click()
    expect(reader.button(reader.say("lobby.create"))).to_be_visible()  # in the page's language


def test_rules_of_an_unknown_game_say_so(person: Callable[..., Person]) -> None:
    reader = person(locale="en-US").open("#/rules/chess", name=None)
    expect(reader.page.get_by_role("alert")).to_contain_text("The rules could not be loaded: no rules for 'chess'")
    reader.errors = [each for each in reader.errors if "404" not in each]  # the browser logs the refused request
    reader.assert_clean()
