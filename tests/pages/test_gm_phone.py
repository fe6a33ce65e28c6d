"""The GM's phone at the table (issue 17, items 9–11, 15, 16), in Chromium at 390×844: the
bottom bar keeps to the command box and one line of the last result (the voice notice said
once, closable), no alert is covered, the "Só o Mestre" card agrees with the state, the last
result follows everything that happened, a player's old result card does not stay all evening,
"Sem conexão…" goes away with the connection back, and "Relatório" opens the session just
closed."""
from __future__ import annotations

from typing import Any

from tests.browser_helpers import (
    TABLE_PHONE,
    open_report,
    readme_screenshot,
    screenshot,
    wait_until,
)
from tests.pages.page_helpers import Table, covered_by_something_else



def bar_height(page: Any) -> float:
    return page.eval_on_selector(".commandbar", "n => n.getBoundingClientRect().height")



def test_the_gm_phone_while_lost_shows_what_matters(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    # the voice is off here (no model): its reason is said once, and closes
    notice = gm.locator("#voice")
    wait_until(lambda: gm.locator("#voice-line").inner_text().strip() != "")
    close = gm.get_by_role("button", name="Esconder o aviso da voz")
    close.click()
    notice.wait_for(state="hidden")
    gm.reload()
    gm.locator("#status.on").wait_for()
    wait_until(lambda: gm.evaluate("window.mesa.voice && window.mesa.voice.status.ligada === false"))
    assert not notice.is_visible(), "the closed voice notice came back"

    for text in ("personagem Ana", "personagem Bia"):
        table.command(gm, text)
    table.get_lost(gm)
    lost = gm.locator("#gm-alerts .gm-alert", has_text="PERDIDO")
    lost.wait_for()
    assert not covered_by_something_else(gm, "#gm-alerts .gm-alert"), "the lost alert is under the bottom bar"
    secrets = gm.locator("#secrets").inner_text()
    assert "PERDIDO" in secrets and "Nenhum segredo" not in secrets, secrets
    # the bar: the command box and ONE line of the last result
    strip = gm.locator("#last-result")
    strip.wait_for()
    lines = gm.eval_on_selector_all("#last-result .line", """ls => ls.map(l => [
        l.getBoundingClientRect().height, parseFloat(getComputedStyle(l).lineHeight)])""")
    assert len(lines) == 1 and lines[0][0] <= 1.6 * lines[0][1], lines
    assert bar_height(gm) <= 0.25 * TABLE_PHONE["height"], bar_height(gm)
    screenshot(gm, "mestre-perdido-celular", full_page=False)
    table.command(gm, "pânico Ana")  # with a prompt pending: what the README shows
    gm.locator("#prompts .prompt").first.wait_for()
    assert not covered_by_something_else(gm, "#gm-alerts .gm-alert")
    readme_screenshot(gm, "mestre-perdido", height=1500)


def test_the_last_result_follows_a_players_answer(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    ana = table.player("Ana", TABLE_PHONE)
    table.command(gm, "personagem Ana sanidade 9")
    table.command(gm, "pânico Ana")
    ana.locator(".prompt").get_by_role("button", name="Rolar").first.click()
    wait_until(lambda: any(e["kind"] == "resposta" for e in table.events()))
    first = next(i for i, e in enumerate(table.events()) if e["kind"] == "resposta")
    answered = [e for e in table.events()[first:] if e["command"] == "responder"]
    texts = [e["text"] for e in answered]

    def shows_the_answer() -> bool:
        lines = gm.locator("#last-result .line").all_inner_texts()
        return bool(lines) and any(line.strip()[:25] in text for line in lines for text in texts)
    wait_until(shows_the_answer, message=f"the GM's last result did not follow Ana's answer: "
               f"{gm.locator('#last-result').inner_text()!r} / {texts!r}")


def test_a_players_result_card_leaves_once_the_table_moves_on(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    ana = table.player("Ana", TABLE_PHONE)
    table.command(gm, "personagem Ana sanidade 9")
    table.command(gm, "pânico Ana")
    ana.locator(".prompt").get_by_role("button", name="Rolar").first.click()
    card = ana.locator("#answer-result .answer-card")
    card.wait_for()
    table.command(gm, "rolar 1d6")  # the same moment: the card stays
    table.command(gm, "estado")
    assert card.is_visible()
    table.command(gm, "explorar")  # the game's clock moves on: the card goes
    card.wait_for(state="detached")


def test_no_connection_leaves_no_stale_message_on_the_cards(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    ana = table.player("Ana", TABLE_PHONE)
    table.command(gm, "personagem Ana sanidade 9")
    table.command(gm, "pânico Ana")
    prompt = ana.locator(".prompt").first
    prompt.wait_for()
    ana.evaluate("window.mesa.conn.socket.disconnect()")
    prompt.get_by_role("button", name="Rolar").first.click()
    error = prompt.locator(".error")
    error.filter(has_text="Sem conexão").wait_for()
    ana.evaluate("window.mesa.conn.socket.connect()")
    ana.locator("#status.on").wait_for()
    wait_until(lambda: "Sem conexão" not in ana.locator("body").inner_text(),
               message="'Sem conexão…' stayed after reconnecting")


def test_the_report_link_opens_the_session_just_closed(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    table.command(gm, "personagem Ana")
    table.command(gm, "rolar 1d6")
    table.command(gm, "encerrar sessão")
    report = open_report(gm)  # the page POSTs its token
    report.locator("h1", has_text="Relatório da sessão 1").wait_for()
    page = report.content()
    assert "Relatório da sessão 1" in page and 'data-sessao="2"' in page
