"""A person at the page, in a browser context of their own: everything goes through clicks and keys on what the page
shows (locators by role and name, which also check that the page names its controls), never through the API."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page, Response, expect

from service.web import STATIC
from tests.service.servers import ROOT

WAIT_MS = 15000  # each step: views travel in milliseconds; bots of Ninja wait their pace; a busy CI machine
#: A button's computed background and text colours.
COLOURS = "(button) => [getComputedStyle(button).backgroundColor, getComputedStyle(button).color]"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
#: The moves a test takes at most before it calls a game endless.
MOST_MOVES = 200
#: What Chromium logs of a request the server refused by the rules.
REFUSED_LINE = "Failed to load resource: the server responded with a status of 422 (UNPROCESSABLE ENTITY)"


def messages(lang: str) -> dict[str, Any]:
    """The page's message files in ``lang``, by namespace."""
    return {
        namespace: json.loads((STATIC / "locales" / lang / f"{namespace}.json").read_text(encoding="utf-8"))
        for namespace in ("page", "games")
    }


class Person:
    """One person's page, in their browser's language ``lang`` (its words: ``say``). ``errors`` gathers what the
    page threw or logged as an error (a key missing from the message files among them); ``refused`` the actions the
    server refused by the rules (422)."""

    def __init__(self, context: BrowserContext, url: str, lang: str = "en") -> None:
        self.url = url
        self.lang = lang
        self.messages = messages(lang)
        self.errors: list[str] = []
        context.add_init_script(path=str(AXE))  # a test tool, injected by the browser: the page's policy stays
        self.page: Page = context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.refused: list[dict[str, Any]] = []
        self.page.on("response", self._note_refusal)

    def _note_refusal(self, response: Response) -> None:
        if response.status == 422 and response.url.endswith("/actions"):
            self.refused.append(response.request.post_data_json or {})

    def open(self, route: str = "", name: str | None = "Ann") -> Person:
        self.page.goto(f"{self.url}/{route}")
        expect(self.page.locator("body[data-ready]")).to_be_attached()
        if name is not None:
            self.page.get_by_label(self.say("shell.name")).fill(name)
            self.page.get_by_label(self.say("shell.name")).dispatch_event("change")
        return self

    def say(self, key: str, **values: Any) -> str:
        """The page's words for ``key`` (``"lobby.create"``, ``"games:ninja.title"``) in this person's language, as the
        page's ``t`` gives them (a ``count`` picks the plural form; ``context="you"`` the form said to the seat)."""
        namespace, path = key.split(":", 1) if ":" in key else ("page", key)
        node: Any = self.messages[namespace]
        parts = path.split(".")
        for part in parts[:-1]:
            node = node[part]
        last = parts[-1]
        names = [f"{last}_{values['context']}", last] if values.get("context") else [last]
        if "count" in values:
            form = "one" if values["count"] == 1 or (self.lang == "fr" and values["count"] == 0) else "other"
            names = [f"{name}_{form}" for name in names] + names
        text: str = next(node[name] for name in names if name in node)
        return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda match: str(values.get(match.group(1), "")), text)

    def button(self, name: str) -> Locator:
        return self.page.get_by_role("button", name=name, exact=True)

    def create(
        self, game: str, players: int, seats: list[str], options: dict[str, str] | None = None, public: bool = False
    ) -> None:
        """Fill the lobby's form: the game by its title, the players, each seat ("You", "A person (open seat)",
        "Bot: Greedy"...) and options by their label (those under "More options" open it)."""
        page = self.page
        page.get_by_role("radio", name=re.compile(game)).check()
        friends = self.say("lobby.seat_open") in seats
        page.get_by_role("radio", name=self.say("lobby.with_friends" if friends else "lobby.with_bots")).check()
        page.get_by_label(self.say("lobby.players"), exact=True).fill(str(players))
        page.get_by_label(self.say("lobby.players"), exact=True).dispatch_event("change")
        for seat, choice in enumerate(seats):
            page.get_by_label(self.say("lobby.seat", number=seat + 1), exact=True).select_option(label=choice)
        if options:
            page.get_by_text(self.say("lobby.more_options")).click()
            for label, value in options.items():
                field = page.get_by_label(label, exact=True)
                if field.evaluate("element => element.tagName") == "SELECT":
                    field.select_option(value)
                else:
                    field.fill(value)
        if public:
            page.get_by_label(self.say("lobby.public")).check()
        self.button(self.say("lobby.create")).click()
        expect(page.locator("#table")).to_be_attached()

    @property
    def game_id(self) -> str:
        return self.page.url.rsplit("/", 1)[1]

    def version(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-version") or -1)

    def wait_past(self, version: int) -> None:
        self.page.wait_for_function(
            "v => Number(document.querySelector('#table')?.dataset.version) > v"
            " || document.querySelector('.outcome h3')",
            arg=version,
        )

    def over(self) -> bool:
        return self.page.locator(".outcome h3").count() > 0

    def wait_turn_or_end(self, turn: str) -> bool:
        """Wait until this person has a move (``turn``: a CSS selector of what shows it) or the game is over;
        ``True`` for a move."""
        self.page.wait_for_function("s => document.querySelector('.outcome h3') || document.querySelector(s)", arg=turn)
        return not self.over()

    # The Game ---------------------------------------------------------------------------------------------------
    THE_GAME_TURN = "#table .hand button.card:not(:disabled), #table button:not(:disabled)[data-key='end-turn']"

    def the_game_turn(self) -> None:
        """One whole turn, as a person who knows no strategy: the lowest card that can go somewhere, on the first
        pile that takes it, until the minimum is placed; then end the turn."""
        end = self.button(self.say("games:the-game.table.end_turn"))
        while not self.over():
            before = self.version()
            if end.is_enabled():
                end.click()
                self.wait_past(before)
                return
            self.page.locator("#table .hand button.card:not(:disabled)").first.click()
            self.page.locator("#table button.pile:not(:disabled)").first.click()
            self.wait_past(before)

    def play_the_game_to_its_end(self) -> None:
        for _ in range(MOST_MOVES):
            if not self.wait_turn_or_end(self.THE_GAME_TURN):
                return
            self.the_game_turn()
        raise AssertionError("the game did not end")

    # Ninja ------------------------------------------------------------------------------------------------------
    NINJA_MOVE = "#table .moves-bar button"

    def ninja_move(self) -> None:
        """The first move the page offers (a completion first, then plays from the lowest, a pick-up, ready).

        A completion is offered out of turn, so a bot's move can take it away between the wait that saw it and
        this click, and the game can even end then: the button is looked up and clicked in one step in the page,
        and when it is gone the caller waits for the next move again."""
        self.click_if_offered(self.NINJA_MOVE)

    def click_if_offered(self, selector: str) -> None:
        """Click the button ``selector`` finds if the page still shows it, looked up and clicked in one step, and
        wait for the view it brings; when it is gone (another seat's move took it away), nothing."""
        before = self.version()
        if self.page.evaluate("s => { const b = document.querySelector(s); b?.click(); return !!b; }", selector):
            self.wait_past(before)

    # Bataille corse ---------------------------------------------------------------------------------------------
    FLIP = "#table button[data-key='flip']:not(:disabled)"

    def flip(self) -> None:
        """Flip when on turn: a bot's slap can take the turn away between the wait that saw Flip and the click, and
        a flip of its own can then end the game (``click_if_offered``)."""
        self.click_if_offered(self.FLIP)

    # Checks -----------------------------------------------------------------------------------------------------
    def outcome(self) -> str:
        return self.page.locator(".outcome").inner_text()

    def shown_text(self) -> str:
        """Every word the page holds for a person: its text (closed panels and live regions included), its
        controls' accessible names, placeholders and titles, its choices, the document's title."""
        text: str = self.page.evaluate("""() => [document.title, document.body.textContent,
          ...[...document.querySelectorAll("[aria-label], [placeholder], [title]")].flatMap((element) =>
            ["aria-label", "placeholder", "title"].map((name) => element.getAttribute(name) || "")),
          ...[...document.querySelectorAll("[data-note]")].map((element) => element.dataset.note),
        ].join("\\n")""")
        return text

    def serious_violations(self) -> list[dict[str, Any]]:
        """axe-core's serious and critical findings on the page as it is now."""
        found = self.page.evaluate("async () => (await axe.run(document)).violations")
        return [
            {"id": each["id"], "nodes": [node["target"] for node in each["nodes"]][:3]}
            for each in found
            if each["impact"] in ("serious", "critical")
        ]

    def colours(self, button: Locator) -> list[str]:
        """``button``'s computed background and text colours."""
        colours: list[str] = button.evaluate(COLOURS)
        return colours

    def page_colours(self, kind: str) -> list[str]:
        """The colours of a button of class ``kind`` ("primary", "urgent") outside any table: what a table's button
        of that kind must have too."""
        made = "(kind) => { const b = document.createElement('button'); b.className = kind; document.body.append(b);"
        colours: list[str] = self.page.evaluate(f"{made} const c = ({COLOURS})(b); b.remove(); return c; }}", kind)
        return colours

    def assert_clean(self) -> None:
        """No serious accessibility violation, no error thrown or logged, no action refused; but for a Ninja
        completion that lost its race: one is offered out of turn, and a bot that plays on at once (pace 0, an 8's
        second card) closes its window between the person's click and the server, which then refuses it (422, a
        console line of the browser's own)."""
        violations = self.serious_violations()
        assert violations == [], json.dumps(violations, indent=1)
        assert all(action.get("type") == "complete" for action in self.refused), self.refused
        errors = list(self.errors)
        for _ in self.refused:
            if REFUSED_LINE in errors:
                errors.remove(REFUSED_LINE)
        assert errors == [], json.dumps(errors, indent=1)

    def screenshot(self, name: str, part: str = ".board") -> None:
        """``docs/screenshots/<name>-<width>.png``: the seats and the table at a phone's and a desktop's width (the
        game's id and link, new every run, are not in it, and a clock is hidden: the file changes only when the
        page does)."""
        page = self.page
        size = page.viewport_size
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            path = SCREENSHOTS / f"{name}-{viewport['width']}.png"
            page.evaluate("for (const clock of document.querySelectorAll('.clock')) clock.style.visibility = 'hidden'")
            page.locator(part).screenshot(path=path, animations="disabled")
        if size:
            page.set_viewport_size(size)
