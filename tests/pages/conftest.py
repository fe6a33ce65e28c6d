"""The Chromium tests' fixtures: Debian's Chromium once per module, and a live table (a fresh
session and server with the pages opened against it) per test."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests.browser_helpers import CHROMIUM, CHROMIUM_ARGS, missing_chromium_message
from tests.pages.page_helpers import Table, live_table


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright; a missing browser fails, never skips."""
    if not CHROMIUM.exists():
        pytest.fail(missing_chromium_message())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def table(tmp_path: Any, tables: Any, browser: Any) -> Iterator[Table]:
    with live_table(tmp_path, tables, browser) as live:
        yield live
