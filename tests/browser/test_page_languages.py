"""The page in French and in English: a French browser (``locale="fr-FR"``) sees a French page, with no English
words of the message files nor of the catalog on any screen of a whole game of each game (the lobby, the table
move by move, the end, the replay); in both languages no screen shows the page's internals (``null``,
``undefined``, the catalog's ``(outcome.seat)`` or rule codes like ``(N7.3)``); a person's choice of language is
remembered."""

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
FLIP = Person.FLIP
#: What a screen never shows: the page's or the catalog's internals.
INTERNALS = re.compile(r"\bnull\b|\bundefined\b|\(outcome|\(N\d|\[object|NaN")
#: English words a French screen never holds, whatever string they came in (once the titles are taken out): a
#: string written in a module rather than in the files shows up here.
ENGLISH = re.compile(r"\b(the|and|you|your|with|of|is|are|to|not|no|cards?|turn|seat|slap|flip)\b", re.IGNORECASE)
TITLES = re.compile("The Game|Bataille corse|Ninja")
LANGUAGES = ["en", "fr"]
LOCALE = {"en": "en-GB", "fr": "fr-FR"}


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


def assert_words(person: Person, english: set[str]) -> None:
    """The screen shows no internals, and in French no English words."""
    lang, shown = person.page.locator("html").get_attribute("lang"), person.shown_text()
    assert lang == person.lang
    assert not INTERNALS.search(shown), INTERNALS.findall(shown)
    assert_no_mid_sentence_you(person)
    if person.lang != "en":
        leaks = sorted(words for words in english if re.search(rf"(?<!\w){re.escape(words)}(?!\w)", shown))
        assert leaks == [], leaks
        words = ENGLISH.findall(TITLES.sub("", shown))
        assert words == [], words


def assert_no_mid_sentence_you(person: Person) -> None:
    """The person's own seat is "you" inside a sentence ("gives the pile to you", "vous donne"), never "to You"."""
    texts: list[str] = person.page.evaluate("""() => { const walk = document.createTreeWalker(document.body, 4);
      const texts = []; while (walk.nextNode()) texts.push(walk.currentNode.data); return texts; }""")
    you = re.compile(rf"(?<=[a-zà-ÿ] ){re.escape(person.say('seat.you'))}\b")
    assert [text for text in texts if you.search(text)] == []


def catalog(person: Person) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(person.page.request.get(f"{person.url}/v1/games/catalog").text())["games"]
    return games


def won(person: Person) -> re.Pattern[str]:
    """The headline of a competitive game's end: someone won, or you did."""
    return re.compile(f"^({person.say('outcome.won_by', name='.+')}|{re.escape(person.say('outcome.won_by_you'))})$")


def the_end_and_its_replay(person: Person, english: set[str]) -> None:
    """The finished game's screen, then its replay stepped to the end: their words checked, the page clean."""
    assert_words(person, english)
    person.page.get_by_role("link", name=person.say("game.open_replay")).click()
    person.button(person.say("replay.end")).click()
    expect(person.page.locator(".replay .todo")).to_contain_text(person.say("replay.the_end", outcome="").rstrip(" ."))
    assert_words(person, english)
    person.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_of_the_game_in_each_language(person: Callable[..., Person], lang: str) -> None:
    ann = person(locale=LOCALE[lang], color_scheme="dark" if lang == "fr" else "light").open()
    english = english_words(catalog(ann))
    assert_words(ann, english)
    expect(ann.page.get_by_role("heading", name=ann.say("lobby.new_game"))).to_be_visible()
    ann.screenshot(f"lobby-{lang}", ".games")
    bot = ann.say("lobby.seat_bot", level=ann.say("games:the-game.bots.random.name"))
    options = {ann.say("games:the-game.options.hand_size.label"): "2", ann.say("lobby.seed"): "12"}
    ann.create("The Game", 2, [ann.say("lobby.seat_you"), bot], options)
    for turn in range(MOST_MOVES):
        if not ann.wait_turn_or_end(Person.THE_GAME_TURN):
            break
        if turn == 1 and lang == "fr":
            ann.screenshot("the-game-fr")
        expect(ann.page.locator("#todo")).to_contain_text(ann.say("games:the-game.todo.place_or_end")[:5])
        assert_words(ann, english)
        ann.the_game_turn()
    expect(ann.page.locator(".outcome h3")).to_have_text(ann.say("outcome.status.lost"))
    the_end_and_its_replay(ann, english)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_of_ninja_in_each_language(person: Callable[..., Person], lang: str) -> None:
    """With two bots of one level, each seat's name is its own."""
    ann = person(locale=LOCALE[lang]).open()
    english = english_words(catalog(ann))
    level = ann.say("games:ninja.bots.greedy.name")
    bot = ann.say("lobby.seat_bot", level=level)
    options = {
        ann.say("games:ninja.options.max_turns.label"): "12",
        ann.say("lobby.seed"): "3",
        ann.say("lobby.pace"): "0",
    }
    ann.create("Ninja", 3, [ann.say("lobby.seat_you"), bot, bot], options)
    expect(ann.page.locator("#todo")).to_contain_text(ann.say("games:ninja.todo.swap")[:6])
    # A bot's 13 given to the person, as the moves list and the table say it.
    give = """async () => { const ninja = await import("/web/tables/ninja.js");
      return ninja.describe({type: "give", seat: 1, target: 0}, {name: "Bot"}, () => "?", 0); }"""
    assert ann.page.evaluate(give) == {"en": "Bot gives the pile to you", "fr": "Bot vous donne le tas"}[lang]
    names = ann.page.locator(".seats .who").all_inner_texts()
    assert names == ["1. " + ann.say("seat.you")] + [
        f"{seat}. " + ann.say("seat.bot_numbered", level=level, number=seat - 1) for seat in (2, 3)
    ]
    assert_words(ann, english)
    ann.button(ann.say("games:ninja.moves.ready")).click()
    for move in range(MOST_MOVES):
        if not ann.wait_turn_or_end(Person.NINJA_MOVE):
            break
        if move % 3 == 0:
            assert_words(ann, english)
        if move == 3 and lang == "fr":
            ann.screenshot("ninja-fr")
        ann.ninja_move()
    expect(ann.page.locator(".outcome h3")).to_have_text(won(ann))
    the_end_and_its_replay(ann, english)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_of_bataille_corse_in_each_language(person: Callable[..., Person], lang: str) -> None:
    """A loser out of cards at the end is out, no longer "may slap back in"."""
    ann = person(locale=LOCALE[lang]).open()
    english = english_words(catalog(ann))
    bot = ann.say("lobby.seat_bot", level=ann.say("games:bataille-corse.bots.best.name"))
    options = {ann.say("games:bataille-corse.options.max_flips.label"): "14", ann.say("lobby.seed"): "2"}
    ann.create("Bataille corse", 2, [ann.say("lobby.seat_you"), bot], {**options, ann.say("lobby.pace"): "600"})
    page = ann.page
    expect(page.locator(FLIP)).to_be_visible()
    four = ann.say("games:bataille-corse.cards.of_clubs", rank="4")
    expect(page.get_by_role("img", name=four)).to_be_visible()
    before = ann.version()
    page.keyboard.press(" ")  # a false slap: its result in the person's words
    ann.wait_past(before)
    result = ann.say("games:bataille-corse.results.false")
    said = ann.say("games:bataille-corse.log.slap_result", context="you", name=ann.say("seat.you"), result=result)
    expect(page.locator(".moves li").first).to_have_text(said)
    assert_words(ann, english)
    if lang == "fr":
        ann.screenshot("bataille-corse-fr")  # the false slap, said over the table
    for _ in range(MOST_MOVES):
        if not ann.wait_turn_or_end(FLIP):
            break
        assert_words(ann, english)
        ann.flip()
    expect(page.locator(".outcome h3")).to_have_text(won(ann))
    expect(page.locator(".bc-seats")).not_to_contain_text(ann.say("games:bataille-corse.states.out"))
    the_end_and_its_replay(ann, english)


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
