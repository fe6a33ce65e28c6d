"""What the Chromium tests share: a live table (session, server and the pages opened against
it, checked afterwards for foreign requests and JavaScript errors) and small page readers."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from axe_playwright_python.sync_playwright import Axe

from tests.browser_helpers import GM_TOKEN, PHONE, TV, LiveTable, wait_until

AXE = Axe()


class Table(LiveTable):
    """A live session and server, and the browser pages opened against it."""

    def open(self, path: str, context: Any | None = None, viewport: dict[str, int] = PHONE) -> Any:
        return self.page(path, path, context or self.context(viewport))

    def gm(self, viewport: dict[str, int] = PHONE) -> Any:
        page = self.open(f"/mestre?token={GM_TOKEN}", viewport=viewport)
        page.locator("#status.on").wait_for()
        return page

    def player(self, name: str, viewport: dict[str, int] = PHONE) -> Any:
        page = self.open("/jogador", viewport=viewport)
        page.get_by_label("Nome").fill(name)
        page.get_by_role("button", name="Entrar").click()
        page.locator("#who", has_text=name).wait_for()
        page.locator("#status.on").wait_for()
        return page

    def mesa(self) -> Any:
        page = self.open("/mesa", viewport=TV)
        page.locator("#status.on").wait_for()
        return page

    def number(self, character: str, prompt_id: int) -> int:
        """A prompt's number on that character's phone: players count their own prompts."""
        mine = [e["data"]["pedido"]["id"] for e in self.events()
                if e["kind"] == "pedido" and e["visibility"] == f"player:{character}"]
        return mine.index(prompt_id) + 1

    def get_lost(self, gm: Any) -> None:
        """Advance in the swamp (3:6 to get lost) until the party is lost, the GM waiving the
        forced-march tests on the way; with the seed 7 it happens within 15 advances."""
        self.command(gm, "terreno pântano")
        for _ in range(15):
            self.command(gm, "avançar")
            while self.session.state.prompts:  # the forced-march test comes before the advance
                self.command(gm, "cancelar")  # (the GM waives it: the advance goes on)
            if self.session.state.travel.lost:
                break
        assert self.session.state.travel.lost, "com a semente 7 o grupo deveria se perder no pântano"

    # ------------------------------------------------------------------ acting

    def command(self, gm: Any, text: str) -> list[dict]:
        """Type a command on the GM page and press Enter; returns the events it produced."""
        before = len(self.events())
        gm.get_by_label("Comando").fill(text)
        gm.get_by_label("Comando").press("Enter")
        error = gm.locator("#command-error")
        try:
            wait_until(lambda: len(self.events()) > before)
        except AssertionError:
            shown = error.inner_text() if error.is_visible() else "(nenhum)"
            raise AssertionError(f"{text!r} não produziu eventos; erro na página: {shown}") from None
        fresh = self.events()[before:]
        gm.locator(f"#log li[data-seq='{fresh[-1]['seq']}']").wait_for()
        error.wait_for(state="hidden")  # an accepted command clears the last error
        return fresh


@contextmanager
def live_table(tmp_path: Any, tables: Any, browser: Any, **server_options: Any) -> Iterator[Table]:
    """A fresh session and server; afterwards, no foreign request and no JavaScript error."""
    from companion.server.app import start_in_thread
    from companion.session import Session

    session = Session.open(tmp_path / "mesa.db", 7, tables, gm_token=GM_TOKEN)
    server = start_in_thread(session, **server_options)
    live = Table(session, server, browser)
    try:
        yield live
        assert live.recorder.urls, "nenhuma requisição registrada"
        assert live.recorder.foreign() == [], f"requisições fora do servidor: {live.recorder.foreign()}"
        assert live.errors == [], f"erros de JavaScript: {live.errors}"
    finally:
        live.close()
        server.stop()
        session.close()


def body_text(page: Any) -> str:
    return page.locator("body").inner_text()


def answers(table: Table, before: int) -> list[dict]:
    return [e for e in table.events()[before:] if e["kind"] == "resposta"]


def answered(table: Table, before: int, message: str) -> dict:
    return wait_until(lambda: answers(table, before), message=message)[0]


def covered_by_something_else(page: Any, selector: str) -> bool:
    """Whether the element's centre, once scrolled to the bottom edge of the view, is hidden
    under another element (the sticky command bar, say)."""
    return page.eval_on_selector(selector, """node => {
        node.scrollIntoView({block: "end"});
        const box = node.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return !(hit && (hit === node || node.contains(hit)));
    }""")


def violations(page: Any) -> list[str]:
    """What axe-core finds on the page as it is now: rule, impact and the first elements."""
    found = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in found]
