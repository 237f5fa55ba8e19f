"""The daily deal on the page, in a real browser against the real server: today's deal played against a bot to its
end from the lobby's "Daily deal", then the person's result on today's board and their rank, with the bots'
yardstick."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Locator, expect

from tests.browser.person import PHONE, Person
from tests.client.live import server


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with server() as url:
        yield url


def today_s_board(person: Person) -> Locator:
    """The lobby's "Daily deal", showing The Game for two players."""
    daily = person.page.get_by_role("region", name="Daily deal")
    daily.get_by_label("Daily game").select_option(label="The Game")
    daily.get_by_label("Daily players").fill("2")
    daily.get_by_label("Daily players").dispatch_event("change")
    return daily


def test_a_person_plays_today_s_deal_and_finds_the_result_on_the_board(person: Callable[..., Person]) -> None:
    name = f"Ann {secrets.token_hex(3)}"  # today's board may hold earlier runs' results (a Redis kept between runs)
    ann = person(viewport=PHONE).open(name=name)
    daily = today_s_board(ann)
    daily.get_by_label("Your team's bots").select_option("greedy")
    expect(daily.get_by_role("heading", name="Today's board, The Game, 2 players")).to_be_visible()
    expect(daily).to_contain_text("Bots (Best at every seat):")
    ann.assert_clean()

    daily.get_by_role("button", name="Play today's deal").click()
    expect(ann.page.locator("#table")).to_be_attached()
    expect(ann.page.locator(".role")).to_contain_text("You play seat")
    expect(ann.page.locator(".seats")).to_contain_text("Bot Greedy")
    ann.play_the_game_to_its_end()
    # Today's deal stays secret until the day is over: no replay yet (the page says when), and no rematch.
    expect(ann.page.locator(".controls")).to_contain_text("The replay opens once the day is over (UTC)")
    expect(ann.page.get_by_role("link", name="Open the replay")).to_have_count(0)
    expect(ann.button("Rematch")).to_have_count(0)
    ann.assert_clean()

    ann.page.goto(f"{ann.url}/#/")
    board = today_s_board(ann).get_by_role("table", name="Today's board, The Game, 2 players")
    expect(board.get_by_role("row", name=name)).to_contain_text("cards not laid")
    expect(ann.page.locator(".daily-mine")).to_contain_text("Your rank: ")  # GET .../me with the seat's token
    expect(ann.page.locator(".daily-mine")).to_contain_text("Better than ")  # and with the key: the same game, once
    expect(ann.page.locator(".daily-mine")).to_have_count(1)
    ann.assert_clean()
    ann.page.get_by_role("link", name="Me", exact=True).click()  # the Me panel says it too
    expect(ann.page.locator(".me-daily li")).to_contain_text("The Game for 2: rank ")
    expect(ann.page.locator(".me-daily li")).to_contain_text("Better than ")
    ann.assert_clean()
