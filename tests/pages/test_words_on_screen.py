"""The wording the table reads (issue 31 item 6), in Chromium at 390×844 through the real pages:
the time written "20h30" in the GM's answer panel; a sheet's modifiers in one sign format
("CON +2, DES +1") on the log and the cards; a player's answer without the prompt's number; "Derrotados: 2 goblins no Pântano" with the region's own preposition. (The seats' "há N
min" and the Regras refusals are in test_seats.py and test_rules.py.)"""
from __future__ import annotations

import re
from typing import Any

from tests.browser_helpers import TABLE_PHONE, screenshot, wait_until
from tests.pages.page_helpers import Table, answered, body_text


def _settle(table: Table, gm: Any) -> None:
    """The GM waives whatever prompt a round raised (an encounter's test, say)."""
    while table.session.state.prompts:
        table.command(gm, "cancelar")


def test_the_time_is_written_20h30_on_screen(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    table.command(gm, "personagem Ana pv 8")
    for _ in range(5):  # five rounds of 4 hours: 20h
        table.command(gm, "explorar")
        _settle(table, gm)
    table.command(gm, "masmorra")
    table.command(gm, "3 turnos")  # 30 minutes
    _settle(table, gm)
    assert table.session.state.minutes % (24 * 60) == 20 * 60 + 30, table.session.state.minutes
    table.command(gm, "tempo")
    shown = wait_until(lambda: (lambda t: t if "20h30" in t else None)(
        gm.locator("#answer-text").inner_text()), message="tempo did not say 20h30")
    assert shown.startswith("São 20h30 do dia 1"), shown
    assert not re.search(r"\b20 e 30\b", shown), shown
    screenshot(gm, "palavras-tempo-20h30", full_page=False)


def test_a_sheet_says_its_modifiers_one_way(table: Table) -> None:
    ana = table.player("Ana", TABLE_PHONE)
    gm = table.gm(TABLE_PHONE)
    table.command(gm, "personagem Ana pv 8 con 2 des 1")
    wait_until(lambda: "CON +2, DES +1" in body_text(gm), message="the sheet line on the GM's log")
    table.command(gm, "personagem Ana con 0 des 2")
    wait_until(lambda: "Ana: CON +0, DES +2." in body_text(gm), message="the change on the log")
    mine = ana.locator("#me .pc")
    wait_until(lambda: "CON +0" in mine.inner_text() and "DES +2" in mine.inner_text(),
               message=f"Ana's card: {mine.inner_text()!r}")
    assert not re.search(r"\b(CON|DES) \d", body_text(ana) + body_text(gm))
    screenshot(ana, "palavras-ficha-sinais", full_page=False)


def test_an_answer_is_read_without_the_prompt_number(table: Table) -> None:
    """Bruno's answer says what was asked ("teste de pânico"), not "pedido 2", on his phone and
    the GM's (only the party's answers reach /mesa, and they never had a number)."""
    bruno = table.player("Bruno", TABLE_PHONE)
    gm = table.gm(TABLE_PHONE)
    table.command(gm, "pânico Bruno")
    card = bruno.locator("#prompts .prompt")
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("3")
    before = len(table.events())
    card.get_by_role("button", name="Enviar valor").click()
    said = answered(table, before, "Bruno's answer did not reach the server")
    assert said["text"].startswith("Bruno respondeu: 3") and "pedido" not in said["text"], said
    for page, name in ((bruno, "bruno"), (gm, "mestre")):
        shown = wait_until(lambda: (lambda t: t if "Bruno respondeu" in t else None)(
            page.locator("#log").inner_text()), message=f"{name} did not read Bruno's answer")
        assert "respondeu ao pedido" not in shown and "(teste de pânico)" in shown, shown
        screenshot(page, f"palavras-resposta-{name}", full_page=False)


def test_defeated_are_counted_in_the_regions_own_words(table: Table) -> None:
    ana = table.player("Ana", TABLE_PHONE)
    gm = table.gm(TABLE_PHONE)
    table.command(gm, "terreno pântano")
    table.command(gm, "derrotados 2 goblins")
    for page in (gm, ana):
        wait_until(lambda: "Derrotados: 2 goblins no Pântano (total: 2)." in body_text(page),
                   message="the count with the region's preposition")
    assert "em Pântano" not in body_text(ana)
    screenshot(ana, "palavras-derrotados-no-pantano", full_page=False)
