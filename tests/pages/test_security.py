"""The GM's token leaves the address bar (issue 25, item 6), in real Chromium against a real
server on loopback: the link's token is kept by the browser and taken out of the URL and of its
history entry, whether it came as `?token=` (the terminal's link) or as `#token=` (never sent
to the server)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.server import qr
from companion.tables.files import Tables
from tests.browser_helpers import GM_TOKEN, PHONE, LiveTable
from tests.pages.page_helpers import live_table


@pytest.fixture
def table(tmp_path: Path, tables: Tables, browser: Any) -> Iterator[LiveTable]:
    with live_table(tmp_path, tables, browser) as live:
        yield live


@pytest.mark.parametrize("link", [f"/mestre?token={GM_TOKEN}", f"/mestre#token={GM_TOKEN}"],
                         ids=["consulta", "fragmento"])
def test_the_gm_token_leaves_the_address_bar_after_load(table: LiveTable, link: str) -> None:
    page = table.page("mestre", link, table.context(PHONE))
    page.locator("#status.on").wait_for()
    assert page.url == table.server.url + "/mestre"
    assert GM_TOKEN not in page.evaluate("location.href + document.referrer")
    assert page.evaluate("localStorage.getItem('mesa.mestre.token')") == GM_TOKEN
    page.go_back()  # the entry before is the blank tab, not the link with the token
    assert GM_TOKEN not in page.url


def test_the_terminals_gm_link_logs_in_and_leaves_no_token_behind(table: LiveTable) -> None:
    """The link `serve` prints (qr.Links.gm) carries the token in the fragment: the first
    request has none, the page logs in, and the address bar and history keep none."""
    context = table.context(PHONE)
    asked: list[tuple[str, str]] = []
    context.on("request", lambda request: asked.append((request.method, request.url)))
    link = qr.Links(table.server.url, GM_TOKEN).gm
    assert link == f"{table.server.url}/mestre#token={GM_TOKEN}"
    page = context.new_page()
    page.goto(link)
    page.locator("#status.on").wait_for()
    mestre = f"{table.server.url}/mestre"
    assert [a for a in asked if a[1] == mestre][:2] == [("GET", mestre), ("POST", mestre)]
    assert not [url for _, url in asked if GM_TOKEN in url]  # never in an address
    assert page.url == mestre
    assert page.evaluate("localStorage.getItem('mesa.mestre.token')") == GM_TOKEN
    asked.clear()
    page.reload()  # a plain GET again (no form sent twice), logged in from the kept token
    page.locator("#status.on").wait_for()
    assert [a for a in asked if a[1] == mestre] == [("GET", mestre), ("POST", mestre)]
    page.go_back()  # the link's entry was replaced: before it, the blank tab
    assert page.url == "about:blank"
