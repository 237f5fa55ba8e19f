"""A first game with friends, without its small traps: the lobby asks who plays (friends or bots) before it offers
seats, follows the number of players as it is typed, and says what each bot level is like; once the game is
created the keyboard starts on it; its link copies with a button; a watcher sees no internals; "Your recent
games" names each game (which, with whom, when, how it went) and drops the games the server no longer has."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.person import Person
from tests.browser.sites import production
from tests.browser.test_page_languages import INTERNALS


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def test_the_lobby_asks_who_plays_then_follows_the_players_typed(person: Callable[..., Person]) -> None:
    ann = person().open()
    page = ann.page
    page.get_by_role("radio", name=re.compile("^Ninja")).check()
    seats = page.get_by_role("group", name="Seats")
    expect(seats).to_contain_text("Choose who plays with you first.")
    expect(seats.get_by_role("combobox")).to_have_count(0)  # no seat is given a bot before the person says so

    page.get_by_role("radio", name=re.compile("^Friends")).check()
    expect(page.get_by_label("Seat 2", exact=True)).to_have_value("open")
    page.get_by_label("Players", exact=True).fill("3")  # typed, the field still focused: the seats follow at once
    assert page.evaluate("document.activeElement.id") == "players"
    expect(seats.get_by_role("combobox")).to_have_count(3)
    expect(page.get_by_label("Seat 3", exact=True)).to_have_value("open")

    page.get_by_role("radio", name=re.compile("^Bots")).check()
    expect(page.get_by_label("Seat 2", exact=True)).to_have_value("bot:best")
    page.get_by_text("The bots' levels").click()
    for level in ("Best", "Greedy", "Random"):
        expect(page.locator(".bot-levels dt", has_text=level)).to_have_count(1)
    expect(page.locator(".bot-levels")).to_contain_text("Counts the cards played")
    assert not INTERNALS.search(ann.shown_text())
    ann.assert_clean()


def test_a_created_game_takes_the_focus_and_its_link_copies(person: Callable[..., Person]) -> None:
    ann = person(permissions=["clipboard-read", "clipboard-write"]).open()
    ann.create("The Game", 2, ["You", "A person (open seat)"])
    page = ann.page
    expect(page.get_by_role("heading", name="The Game", level=2)).to_be_focused()
    link = page.get_by_label("Link to this game (to watch, or to take a free seat)")
    expect(link).to_have_value(re.compile(r"#/game/"))
    ann.button("Copy the link").click()
    expect(page.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link.input_value()
    # The host's bot picker says what each level does, in the lobby's words.
    level = page.get_by_role("combobox", name="Bot level for seat 2")
    expect(level).to_have_accessible_description(re.compile("^Plans its whole turn and warns the others"))
    level.select_option(label="Random")
    expect(level).to_have_accessible_description("Lays any card that fits, by chance.")
    expect(page.locator(".bot-picker")).to_contain_text("Lays any card that fits, by chance.")
    ann.assert_clean()

    watcher = person().open(f"#/game/{ann.game_id}", name=None)
    expect(watcher.page.locator(".role")).to_have_text("Watching")
    assert not INTERNALS.search(watcher.shown_text()), INTERNALS.findall(watcher.shown_text())
    watcher.assert_clean()


def test_recent_games_are_named_and_expired_ones_dropped(person: Callable[..., Person]) -> None:
    ann = person().open()
    ann.create("The Game", 1, ["You"])
    kept = ann.game_id
    page = ann.page
    expect(page.locator("#table")).to_have_attribute("data-status", "playing")
    expired = {"game": "ninja", "seatToken": "gone", "seat": 0, "at": 1, "seats": []}
    page.evaluate(
        """(expired) => { const games = JSON.parse(localStorage.getItem("tg.games"));
        games.expired0game = expired; localStorage.setItem("tg.games", JSON.stringify(games)); }""",
        expired,
    )
    page.goto(f"{ann.url}/#/")
    recent = page.get_by_role("region", name="Your recent games")
    expect(recent.get_by_role("link")).to_have_count(1)  # the game the server does not have is dropped
    expect(recent.get_by_role("link")).to_have_text(re.compile(r"^The Game alone, "))
    expect(recent.get_by_role("listitem")).to_contain_text("(your seat)")
    held = json.loads(page.evaluate("localStorage.getItem('tg.games')"))
    assert set(held) == {kept}
    assert not INTERNALS.search(ann.shown_text())
    assert all("404" in error for error in ann.errors), ann.errors  # the browser logs the expired game's answer
    ann.errors.clear()
    ann.assert_clean()
