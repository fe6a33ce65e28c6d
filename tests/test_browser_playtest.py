"""What a play-test of an evening on the real pages caught (GM phone, two player phones and the
table screen, in Chromium at 390×844): each test would have failed before its fix.

- typing a command made the GM page run to its end, key by key;
- a travel encounter was pushed out of the GM phone's one-line strip by the "still lost" note;
- a party lost outside a dungeon was "not lost" for the GM inside it;
- the chase glance said "turno 0" while the clock question said "turno 1 de 3";
- a group escape test answered by one player vanished from the other's phone unexplained;
- an attribute test's card was titled "Pedido do Mestre";
- a reloaded phone with a prompt pending logged a console error (vibrate before any tap).
"""
from __future__ import annotations

from typing import Any

from tests.browser_helpers import TABLE_PHONE, screenshot, wait_until
from tests.test_browser import Table, table  # noqa: F401


def _console_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return errors


def test_typing_a_command_keeps_the_gm_page_where_it_was(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    for text in ("personagem Ana", "personagem Bia", "personagem Caio"):
        table.command(gm, text)
    assert gm.evaluate("document.documentElement.scrollHeight") > 2 * TABLE_PHONE["height"]
    gm.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    box = gm.get_by_label("Comando").bounding_box()
    gm.mouse.click(box["x"] + 40, box["y"] + box["height"] / 2)  # a finger on the box
    gm.keyboard.type("que horas são")
    gm.wait_for_timeout(200)
    assert gm.evaluate("window.scrollY") == 0, "digitar um comando rolou a página do Mestre"
    gm.keyboard.press("Enter")
    gm.locator("#last-result .line").first.wait_for()
    wait_until(lambda: gm.get_by_label("Comando").input_value() == "")  # sent; the box keeps focus
    assert gm.evaluate("window.scrollY") == 0
    # away from the bar, what scrolls into view still stops above it (the padding is back)
    gm.evaluate("document.activeElement.blur()")
    wait_until(lambda: gm.evaluate(
        "parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom)") > 40)


def test_the_party_lost_outside_is_still_lost_in_the_dungeon(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    table.get_lost(gm)
    table.command(gm, "masmorra")
    secrets = gm.locator("#secrets")
    wait_until(lambda: "Lá fora, o grupo continua PERDIDO" in secrets.inner_text(),
               message="o cartão Só o Mestre esqueceu que o grupo está perdido")
    assert gm.locator("#gm-alerts .gm-alert", has_text="PERDIDO").count() == 0  # a travel banner
    estado = [e for e in table.command(gm, "estado") if e["visibility"] == "gm"]
    assert "perdidos: sim" in estado[0]["text"]
    table.command(gm, "viagem")
    gm.locator("#gm-alerts .gm-alert", has_text="PERDIDO").wait_for()
