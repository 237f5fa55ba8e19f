"""The lobby's game tiles: each game's table in a small picture, its players and its pitch, a "How to play" beside
it; the tiles are radio buttons a keyboard moves between with the arrows; light, in both languages and both colour
schemes, with the page's content policy holding (a refused inline style or script is logged, and fails
``assert_clean``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.person import Person
from tests.client.live import server

GAMES = ["bataille-corse", "ninja", "the-game"]  # the catalog's order


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with server() as url:
        yield url


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_each_game_has_a_tile_with_its_table_pictured(person: Callable[..., Person], locale: str, scheme: str) -> None:
    ann = person(locale=locale, color_scheme=scheme).open()
    page = ann.page
    tiles = page.get_by_role("group", name=ann.say("lobby.game")).get_by_role("radio")
    expect(tiles).to_have_count(len(GAMES))
    for game, tile in zip(GAMES, tiles.all(), strict=True):
        title = ann.say(f"games:{game}.title")
        expect(tile).to_have_accessible_name(title)
        pitch = ann.say(f"games:{game}.pitch")
        description = tile.get_attribute("aria-describedby")
        expect(page.locator(f"#{description}")).to_contain_text(pitch)
        expect(page.locator(f"label[for='{tile.get_attribute('id')}'] svg.picture")).to_have_count(1)
        rules = page.locator(f".tile:has(#game-{game})").get_by_role("link", name=ann.say("lobby.how_to_play"))
        expect(rules).to_have_attribute("href", f"#/rules/{game}")
    expect(tiles.first).to_be_checked()
    ann.assert_clean()


def test_the_tiles_are_chosen_with_the_arrow_keys(person: Callable[..., Person]) -> None:
    ann = person().open()
    page = ann.page
    page.get_by_role("radio", name="Bataille corse").focus()
    page.keyboard.press("ArrowRight")
    ninja = page.get_by_role("radio", name="Ninja")
    expect(ninja).to_be_checked()
    expect(ninja).to_be_focused()
    expect(page.get_by_label("Players", exact=True)).to_have_attribute("max", "6")  # the form follows the game
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="The Game")).to_be_focused()
    ann.assert_clean()
