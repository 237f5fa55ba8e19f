"""Debian's chromium, driven by playwright: playwright's own browser download needs a network this project's
machines do not have."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright


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
