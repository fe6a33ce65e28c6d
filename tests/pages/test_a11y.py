"""Accessible pages (issue 17): axe-core (axe-playwright-python, which ships it; no network)
finds no violation on /mestre, /jogador and /mesa in the states a table reaches — a prompt
pending, the answer's result card, the party lost, a chase, the GM's list of seats, a
player's second-device link, the question 'Sair' asks and the GM's Regras screen (a region,
a [mínimo, máximo] pair refused in place, the voice's names)."""
from __future__ import annotations

from typing import Any

from tests.browser_helpers import TABLE_PHONE, wait_until
from tests.pages.page_helpers import Table, violations

def check(pages: dict[str, Any], state: str) -> None:
    for name, page in pages.items():
        assert violations(page) == [], f"{name}, {state}"


def test_no_accessibility_violations_in_the_states_a_table_reaches(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    ana = table.player("Ana", TABLE_PHONE)
    mesa = table.mesa()
    pages = {"mestre": gm, "jogador": ana, "mesa": mesa}
    table.command(gm, "personagem Ana sanidade 8")
    table.command(gm, "personagem Bia")
    table.command(gm, "pânico Ana")
    ana.locator(".prompt").first.wait_for()
    gm.locator("#prompts .prompt").first.wait_for()
    check(pages, "um pedido esperando")

    ana.locator(".prompt").get_by_role("button", name="Rolar").first.click()
    ana.locator("#answer-result:not([hidden])").wait_for()
    check(pages, "o resultado da resposta no celular")

    table.get_lost(gm)
    gm.locator("#gm-alerts .gm-alert", has_text="PERDIDO").wait_for()
    check(pages, "o grupo perdido")

    table.command(gm, "fugir")
    table.command(gm, "fuga sucesso")
    wait_until(lambda: "Perseguição" in mesa.locator("body").inner_text())
    check(pages, "numa perseguição")

    # the seats: the GM's list (on the page all along), the player's second-device link and
    # the question "Sair" asks
    table.session.free_seat("ana", "gm")
    gm.locator("#seats li.seat", has_text="livre").first.wait_for()
    ana = table.player("Ana", TABLE_PHONE)
    pages["jogador"] = ana
    ana.get_by_role("button", name="Entrar em outro aparelho").click()
    ana.locator("#device img.device-qr").wait_for()
    check(pages, "o quadro de lugares e o link de outro aparelho")
    ana.get_by_role("button", name="Sair").click()
    ana.get_by_role("dialog").wait_for()
    check({"jogador": ana}, "a pergunta de Sair")
    # the GM's Regras screen (issue 19), a region open with a refused value in place
    gm.get_by_role("button", name="Regras").click()
    region = gm.locator("#regiao-floresta")
    region.locator("summary").click()
    region.locator(".row-count").first.fill("muitos")
    wait_until(lambda: "deveria ser" in region.locator(".rule-msg").first.inner_text())
    check({"mestre": gm}, "a tela Regras com um valor recusado")
    # its fields of several inputs (a [mínimo, máximo] pair refused in place) and the voice's
    # names (the campaign's own lists, the names it learned)
    low = gm.locator("#regra-personagem-limites_personagem-nivel-0")
    low.fill("30")
    wait_until(lambda: "[mínimo, máximo]" in gm.locator(
        "#regra-personagem-limites_personagem-nivel-msg").inner_text())
    gm.locator("#nomes-aprendidos").wait_for()
    check({"mestre": gm}, "a tela Regras: um par recusado e os nomes da voz")
