"""The news first on the players' phones and the table screen (issue 31), in Chromium through
the real pages (phones at 390×844): after `avançar` with a public encounter, the table
screen's first latest result and each player's top line (the server's `manchete`, shown on
top of /jogador) are the arrival, not the march line; after a panic, the panicking player's
own top line is her effect (heavier than the Table J row), while another player reads only
the public failure; a later command's headline replaces it (never a stale one). Found by
playing the engine with the live table's seed (7): with encounters public (casa.yaml
`encontros.visibilidade: publico`), the third `avançar` brings "Aparecem 4: Goblins montados
em lobos" with the forced march's CON tests; with Sanidade 6 a 20 is Fúria. Each case is
checked here against the events, never the wording. Screenshots go to test-artifacts/."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.browser_helpers import TABLE_PHONE, screenshot, wait_until
from tests.pages.page_helpers import Table, live_table
from tests.pages.test_news_cards import _fail_a_panic
from tests.pages.test_news_first import arrival, play, the
from tests.rules_helpers import changed_rules


@pytest.fixture
def public_table(tmp_path: Path, browser: Any) -> Iterator[Table]:
    """A live table whose travel encounters everyone sees (the house rule `publico`)."""
    rules = changed_rules(tmp_path, "casa.yaml", "visibilidade: mestre",
                          "visibilidade: publico")
    with live_table(tmp_path, rules, browser) as live:
        yield live


def top_line(page: Any) -> str:
    """A player's top line: the server's headline for them, on top of the page."""
    line = page.locator("#headline")
    line.wait_for()
    return line.inner_text().strip()


def shows_on_top(page: Any, text: str, who: str) -> None:
    wait_until(lambda: top_line(page) == text.strip(),
               message=f"{who}'s top line is not the news: {top_line(page)!r} / {text!r}")
    box = page.locator("#headline").bounding_box()
    # on screen, in the top half (a prompt card below it may scroll the page a little)
    assert box is not None and box["y"] + box["height"] / 2 > 0 \
        and box["y"] < TABLE_PHONE["height"] / 2, (who, box)
    # and read: nothing (the sticky top bar) covers its text
    wait_until(lambda: page.eval_on_selector("#headline", """node => {
        const box = node.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return !!hit && (hit === node || node.contains(hit));
    }"""), message=f"{who}'s top line is hidden under something else")


def mesa_first(mesa: Any) -> Any:
    return mesa.locator("#latest > li").first


def test_avancar_with_a_public_encounter_leads_with_the_arrival_everywhere(
        public_table: Table) -> None:
    table = public_table
    ana, bruno = table.player("Ana", TABLE_PHONE), table.player("Bruno", TABLE_PHONE)
    mesa = table.mesa()
    gm = table.gm(TABLE_PHONE)
    events = play(table, gm, "avançar", "avançar", "avançar")
    news = the(events, arrival)
    assert news["visibility"] == "public"
    march = [e for e in events if e["visibility"] == "public" and e["data"].get("peso") == 1
             and e["kind"] == "relato" and e["seq"] > news["seq"]]
    assert march, "the march line should come after the arrival (the newest is not the news)"
    assert any(e["kind"] == "pedido" for e in events)  # each player was asked a CON test too
    for page, name in ((ana, "ana"), (bruno, "bruno")):
        shows_on_top(page, news["text"], name)
        assert all(m["text"].strip() != top_line(page) for m in march)
        screenshot(page, f"noticia-jogador-avancar-encontro-{name}", full_page=False)
    wait_until(lambda: news["text"].strip() in mesa_first(mesa).inner_text()
               and "headline-news" in (mesa_first(mesa).get_attribute("class") or ""),
               message=f"/mesa's first latest result: {mesa_first(mesa).inner_text()!r}")
    assert not any(m["text"].strip() in mesa_first(mesa).inner_text() for m in march)
    screenshot(mesa, "noticia-mesa-avancar-encontro", full_page=False)


def test_after_a_panic_each_player_reads_what_they_may_see_first(table: Table) -> None:
    ana, bruno = table.player("Ana", TABLE_PHONE), table.player("Bruno", TABLE_PHONE)
    mesa = table.mesa()
    gm = table.gm(TABLE_PHONE)
    events = _fail_a_panic(table, gm, ana, 4)  # Sanidade 6: Tabela J 5-7, Fúria
    effect = the(events, lambda e: e["visibility"] == "player:ana"
                 and e["kind"] == "relato" and e["data"].get("tabela") is None
                 and e["data"].get("personagem") == "ana")
    row = the(events, lambda e: e["data"].get("tabela") == "Tabela J: Pânico")
    failed = the(events, lambda e: e["visibility"] == "public" and e["kind"] == "relato")
    assert effect["data"]["peso"] > row["data"]["peso"]  # the oracle: the events' weights
    shows_on_top(ana, effect["text"], "ana")
    assert "Fúria por" in top_line(ana)
    screenshot(ana, "noticia-jogador-panico-efeito", full_page=False)
    # Bruno may not see Ana's effect: his top line is the public failure, nothing of hers
    shows_on_top(bruno, failed["text"], "bruno")
    shown = bruno.locator("body").inner_text()
    assert effect["text"].strip() not in shown and row["text"].strip() not in shown
    screenshot(bruno, "noticia-jogador-panico-outro", full_page=False)
    wait_until(lambda: failed["text"].strip() in mesa_first(mesa).inner_text(),
               message=f"/mesa's first latest result: {mesa_first(mesa).inner_text()!r}")
    assert effect["text"].strip() not in mesa.locator("body").inner_text()
    # the next command each of them sees leads their top line (never the panic's, stale)
    (gained,) = [e for e in table.command(gm, "Bruno ganha 1 ração") if e["kind"] == "relato"]
    for page, name in ((ana, "ana"), (bruno, "bruno")):
        shows_on_top(page, gained["text"], name)
    # a command only the GM sees leaves their top lines as they were
    table.command(gm, "segredo escutar a porta")
    for page, name in ((ana, "ana"), (bruno, "bruno")):
        assert top_line(page) == gained["text"].strip(), name
