"""Debian's chromium, driven by playwright: playwright's own browser download needs a network this project's
machines do not have."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, sync_playwright

from tests.browser.person import Person


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless chromium. Without it the browser tests skip, unless ``TG_BROWSER_TESTS=required`` (CI sets it),
    where they fail: CI must never pass without having run them."""
    executable = shutil.which("chromium")
    if executable is None:
        reason = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("TG_BROWSER_TESTS") == "required":
            pytest.fail(f"{reason}, and TG_BROWSER_TESTS=required")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def person(browser: Browser, site: str) -> Iterator[Callable[..., Person]]:
    """A new person at ``site`` (each test module gives its server), each in a browser context of their own (its
    own storage: another device); their contexts close after the test, and with them their event streams."""
    contexts: list[BrowserContext] = []

    def arrive(**options: Any) -> Person:
        # less motion, as some people ask: the page's shorter pace between bots' moves keeps the tests quick
        contexts.append(browser.new_context(**{"reduced_motion": "reduce", **options}))
        return Person(contexts[-1], site, lang=options.get("locale", "en")[:2])

    yield arrive
    for context in contexts:
        context.close()
