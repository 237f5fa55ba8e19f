"""The Game played on the page in a real browser against the real server: alone against a bot to the end, two people
against each other (with a spectator following, a reload that resumes the seat, a turn played with the keyboard
alone), and the finished game's replay stepped through to its end. Seeded deals with a hand of two cards keep the
games a few turns long."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.person import PHONE, Person
from tests.client.live import server

SHORT = {"Cards in hand": "2", "Seed": "12"}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with server() as url:
        yield url


def test_a_person_plays_a_whole_game_against_a_bot(person: Callable[..., Person]) -> None:
    ann = person(viewport=PHONE, reduced_motion="no-preference").open()
    ann.create("The Game", 2, ["You", "Bot: Random"], SHORT)
    assert ann.wait_turn_or_end(Person.THE_GAME_TURN)
    expect(ann.page.locator("#todo")).to_contain_text("Your turn")
    expect(ann.page.locator(".connection")).to_have_text("Live")
    ann.screenshot("the-game")
    ann.assert_clean()

    ann.play_the_game_to_its_end()
    expect(ann.page.locator(".outcome h3")).to_have_text("Game lost")
    expect(ann.page.locator(".outcome")).to_contain_text("could no longer lay")
    expect(ann.button("End turn")).to_have_count(0)  # a finished game offers no move
    expect(ann.page.locator(".moves li").first).to_be_visible()  # the log of moves, bots' included
    assert ann.page.locator(".moves li", has_text="Bot Random played").count() >= 1
    ann.assert_clean()

    # A rematch: every seat is held, so it starts at once; the page follows into it with the seat's new token.
    finished = ann.game_id
    ann.button("Rematch").click()
    ann.page.wait_for_function("finished => !location.hash.endsWith(finished)", arg=finished)
    expect(ann.page.locator(".role")).to_have_text("You play seat 1")
    expect(ann.page.locator(".seats")).to_contain_text("Bot Random")
    # Leaving: after a confirmation, a bot plays the seat and the person watches.
    ann.page.once("dialog", lambda dialog: dialog.accept())
    ann.button("Leave the seat").click()
    expect(ann.page.locator(".role")).to_have_text("You host this game")
    expect(ann.page.locator(".seats")).to_contain_text("open seat, Bot Best plays it")
    ann.assert_clean()


def test_a_shared_seat_a_lost_stream_and_a_refused_action(person: Callable[..., Person]) -> None:
    """The seat shared by its link (after a confirmation) plays on another device; that device's event stream is cut:
    the page says it is reconnecting, still offers what it last saw, and shows the server's refusal of a card that
    was played meanwhile; the stream comes back by itself."""
    ann = person().open()
    ann.create("The Game", 1, ["You"])
    ann.page.once("dialog", lambda dialog: dialog.accept())
    ann.button("Share my seat…").click()
    link = ann.page.get_by_label("Link to your seat (keep it private)").input_value()
    assert "#/seat/" in link

    other = person()
    other.page.route("**/events*", lambda route: route.abort())  # a network that loses every event stream
    other.page.goto(link)
    expect(other.page.locator(".role")).to_have_text("You play seat 1")
    assert "/seat/" not in other.page.url  # the token leaves the address bar at once
    expect(other.page.locator(".connection")).to_have_text("Reconnecting…")

    card = ann.page.locator("#table .hand button.card:not(:disabled)").first.get_attribute("data-text")
    before = ann.version()
    ann.page.locator("#table .hand button.card:not(:disabled)").first.click()
    ann.page.locator("#table button.pile:not(:disabled)").first.click()
    ann.wait_past(before)

    other.page.locator(f"#table .hand button.card[data-text='{card}']").click()  # still shown: the view is stale
    other.page.locator("#table button.pile:not(:disabled)").first.click()
    expect(other.page.locator(".error")).to_contain_text("Refused: ")
    expect(other.page.locator("#assertive")).to_contain_text("Refused: ")
    other.page.unroute("**/events*")
    expect(other.page.locator(".connection")).to_have_text("Live")
    expect(other.page.locator("#table")).to_have_attribute("data-version", str(ann.version()))
    # the console names the lost streams and the refused request; nothing else went wrong
    assert all("ERR_FAILED" in error or "422" in error for error in other.errors), other.errors
    assert [action["card"] for action in other.refused] == [int(card)]  # the stale card, refused by the rules
    other.errors.clear()
    other.refused.clear()
    ann.assert_clean()
    other.assert_clean()


def focused(page: Page, selector: str) -> bool:
    return bool(page.evaluate("s => document.activeElement.matches(s)", selector))


def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the focus is on an element that matches ``selector``."""
    for _ in range(60):
        if focused(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_finished_game_opens_as_a_replay_stepped_to_its_end(person: Callable[..., Person]) -> None:
    ann = person().open()
    ann.create("The Game", 2, ["You", "Bot: Random"], SHORT)
    ann.play_the_game_to_its_end()
    ann.page.get_by_role("link", name="Open the replay").click()

    page = ann.page
    caption = page.locator(".replay .todo")
    expect(caption).to_have_text("The deal.")
    expect(page.get_by_role("group", name="Bot Random's hand", exact=False)).to_be_visible()  # every hand shown
    ann.button("Forward one move").click()
    expect(caption).to_contain_text("Move 1 of")
    ann.button("Forward one move").click()
    ann.button("Back one move").click()
    expect(caption).to_contain_text("Move 1 of")
    link = page.url
    assert link.endswith("/1")  # the address names the move: a link to share

    ann.button("Autoplay").click()
    expect(caption).to_contain_text("Move 3 of")
    ann.button("Pause").click()
    while "The end" not in caption.inner_text():  # step by step to the end
        ann.button("Forward one move").click()
    expect(caption).to_contain_text("The end: Game lost")
    ann.button("To the start").click()
    expect(caption).to_have_text("The deal.")
    ann.button("To the end").click()
    expect(caption).to_contain_text("The end: Game lost")
    ann.assert_clean()

    other = person()
    other.page.goto(link)
    expect(other.page.locator(".replay .todo")).to_contain_text("Move 1 of")
    other.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_s_end_turn_has_the_page_s_primary_colours(person: Callable[..., Person], scheme: str) -> None:
    """A table's buttons are drawn on its felt, but its moves keep the colours they have everywhere on the page, in
    both colour schemes (axe checks their contrast, and the lobby's first)."""
    ann = person(color_scheme=scheme).open()
    ann.assert_clean()
    ann.create("The Game", 1, ["You"], SHORT)
    end_turn = ann.button("End turn")
    expect(end_turn).to_be_visible()
    assert ann.colours(end_turn) == ann.page_colours("primary") != ann.page_colours("")
    ann.assert_clean()
