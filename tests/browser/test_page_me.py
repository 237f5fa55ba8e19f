"""The person as a player (docs/api.md "Players"): a first visit makes a player silently, its seats follow it to a
second device linked with a code, which continues the same seat, then finds the finished game in My games and
opens its replay; the key never appears in an address the browser asks for. The Me panel in French, with its QR."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Request, expect

from tests.browser.person import Person
from tests.browser.sites import production

SHORT = {"Cards in hand": "2", "Seed": "12"}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with production() as url:
        yield url


def addresses(someone: Person) -> list[str]:
    """Every address ``someone``'s page asks for, from now on."""
    seen: list[str] = []

    def note(request: Request) -> None:
        seen.append(request.url)

    someone.page.on("request", note)
    return seen


def player_key(someone: Person) -> str:
    """The player key the page keeps (once it is made)."""
    someone.page.wait_for_function("() => localStorage.getItem('tg.player')")
    held: dict[str, str] = json.loads(someone.page.evaluate("localStorage.getItem('tg.player')"))
    return held["key"]


def test_a_second_device_linked_by_code_continues_the_seat_and_replays_the_game(
    person: Callable[..., Person],
) -> None:
    ann = person().open()
    asked = addresses(ann)
    ann.create("The Game", 2, ["You", "Bot: Random"], SHORT)
    game_id = ann.game_id
    assert ann.wait_turn_or_end(Person.THE_GAME_TURN)
    ann.the_game_turn()  # a move made here: the other device continues after it
    key = player_key(ann)
    left_at = ann.version()

    ann.page.get_by_role("link", name="Me", exact=True).click()
    expect(ann.page.get_by_role("heading", name="Me", level=2)).to_be_focused()
    expect(ann.page.get_by_label("Player name", exact=True)).to_have_value("Ann")
    ann.button("Make a link code").click()
    code = ann.page.locator(".me-code").inner_text()
    expect(ann.page.get_by_label("Link", exact=True)).to_have_value(f"{ann.url}/#/link/{code}")
    expect(ann.page.get_by_role("img", name=f"QR code of the link for code {code}")).to_be_visible()

    phone = person()
    phone_asked = addresses(phone)
    phone.open("#/me", name=None)
    phone.page.get_by_label("Code", exact=True).fill(code.lower().replace("-", " "))  # as a person might type it
    phone.button("Link this device").click()
    expect(phone.page.get_by_label("Player name", exact=True)).to_have_value("Ann")
    devices = phone.page.locator(".me-devices li")
    expect(devices).to_have_count(2)
    expect(devices.filter(has_text="This device")).to_have_count(1)
    assert player_key(phone) != key  # a key of its own, of the same player

    live = phone.page.locator(f'.my-games li[data-game="{game_id}"]')
    expect(live).to_contain_text("being played")
    live.get_by_role("link", name=re.compile("^Continue The Game with")).click()
    # the seat itself, with its hand: not a watcher
    expect(phone.page.locator(".role")).to_have_text(phone.say("game.role_seat", number=1))
    assert phone.version() >= left_at > 0
    phone.play_the_game_to_its_end()

    phone.page.get_by_role("link", name="Me", exact=True).click()
    finished = phone.page.locator(f'.my-games li[data-game="{game_id}"]')
    expect(finished).not_to_contain_text("being played")
    finished.get_by_role("link", name="Replay and analyse", exact=False).click()
    expect(phone.page.locator(".replay .todo")).to_have_text("The deal.")
    phone.button("Forward one move").click()
    expect(phone.page.locator(".replay .todo")).to_contain_text("Move 1 of")
    phone.assert_clean()
    ann.assert_clean()
    phone_key = player_key(phone)
    for url in asked + phone_asked:
        assert key not in url and phone_key not in url, url
    assert any("/events" in url for url in phone_asked)  # the stream was followed, with the key in a header


def test_the_me_panel_in_french_shows_the_profile_and_signs_a_device_out(person: Callable[..., Person]) -> None:
    anne = person(locale="fr-FR")
    asked = addresses(anne)
    anne.open(name="Anne")
    player_key(anne)
    page = anne.page
    page.get_by_role("link", name="Moi", exact=True).click()
    expect(page.get_by_role("heading", name="Moi", level=2)).to_be_visible()
    expect(page.get_by_role("heading", name="Mes parties", level=3)).to_be_visible()
    expect(page.get_by_text("Aucune partie pour l'instant.")).to_be_visible()
    assert not [url for url in asked if url.endswith("/qr.js")]  # the QR encoder is not in the first load
    anne.button("Créer un code de liaison").click()
    expect(page.get_by_role("img", name="Code QR du lien", exact=False)).to_be_visible()
    assert [url for url in asked if url.endswith("/qr.js")]
    expect(page.locator(".me-devices li").filter(has_text="Cet appareil")).to_have_count(1)
    anne.assert_clean()
    page.get_by_role("link", name="Votre profil public").click()
    expect(page.get_by_role("heading", name="Anne", level=2)).to_be_focused()
    expect(page.get_by_text("Aucune partie terminée pour l'instant.")).to_be_visible()
    expect(page.get_by_role("heading", name="Parties publiques", level=3)).to_be_visible()
    anne.assert_clean()
    page.go_back()
    anne.button("Déconnecter cet appareil").click()
    expect(page.get_by_text("Cet appareil n'a pas encore de joueur", exact=False)).to_be_visible()
    assert page.evaluate("localStorage.getItem('tg.player')") is None
    anne.assert_clean()


def test_the_link_opened_on_another_device_makes_it_the_same_player(person: Callable[..., Person]) -> None:
    ann = person().open()
    player_key(ann)
    ann.page.get_by_role("link", name="Me", exact=True).click()
    ann.button("Make a link code").click()
    link = ann.page.get_by_label("Link", exact=True).input_value()
    tablet = person().open(link.removeprefix(f"{ann.url}/"), name=None)
    expect(tablet.page.get_by_label("Player name", exact=True)).to_have_value("Ann")
    assert tablet.page.url.endswith("#/me")  # the code left the address at once
    expect(tablet.page.locator(".me-devices li")).to_have_count(2)
    expect(tablet.page.get_by_label("Your name", exact=True)).to_have_value("Ann")
    tablet.assert_clean()
