""""Ver anteriores" (issue 25, item 4): a page opens with the latest events the server sends
(companion/server/welcome.py WELCOME_EVENTS); the older ones come on request, page by page,
below the log, in order and each once; the button shows only while there are older ones."""
from __future__ import annotations

from typing import Any

from companion.server import welcome
from tests.browser_helpers import TABLE_PHONE, log_seqs, seen_by, wait_until
from tests.pages.page_helpers import Table

OLDER = welcome.OLDER_PAGE + welcome.OLDER_PAGE // 2  # two pages: a full one, then the rest


def older_button(page: Any) -> Any:
    return page.get_by_role("button", name="Ver anteriores")


def read_back_everything(page: Any, events: list[dict]) -> None:
    """The page shows the last WELCOME_EVENTS; two taps bring the rest, newest first, each
    once, with the texts the server keeps; then no more button."""
    expected = sorted((e["seq"] for e in events), reverse=True)
    wait_until(lambda: log_seqs(page) == expected[:welcome.WELCOME_EVENTS],
               message="a página abre com os eventos mais recentes")
    button = older_button(page)
    button.wait_for()
    button.click()
    shown = welcome.WELCOME_EVENTS + welcome.OLDER_PAGE
    wait_until(lambda: log_seqs(page) == expected[:shown], message="a primeira página antiga")
    assert button.is_visible()  # there are still older ones
    button.click()
    wait_until(lambda: log_seqs(page) == expected, message="todos os eventos, em ordem")
    button.wait_for(state="hidden")
    last = page.locator("#log li[data-seq]").last
    oldest = min(events, key=lambda e: e["seq"])
    assert last.get_attribute("data-kind") == oldest["kind"]
    said = oldest["data"].get("tabela") if oldest["kind"] == "rolagem" else oldest["text"]
    assert said and said in last.inner_text()


def test_ver_anteriores_brings_the_older_events_in_order(table: Table) -> None:
    for _ in range(welcome.WELCOME_EVENTS + OLDER):
        assert table.session.run("rolar 1d6").ok
    gm = table.gm(TABLE_PHONE)
    read_back_everything(gm, seen_by(table.events(), "gm"))

    ana = table.player("Ana", TABLE_PHONE)
    me = ana.evaluate("window.mesa.me.id")
    read_back_everything(ana, seen_by(table.events(), f"player:{me}"))


def test_no_button_when_the_page_already_has_every_event(table: Table) -> None:
    for _ in range(5):
        assert table.session.run("rolar 1d6").ok
    gm = table.gm(TABLE_PHONE)
    wait_until(lambda: len(log_seqs(gm)) == len(table.events()), message="os eventos")
    gm.locator("#h-agora").wait_for()
    assert gm.locator(".older-events").count() == 1
    assert not older_button(gm).is_visible()
