"""What a card says with the real numbers, and what players read of a row written for the GM
(issue 31, items 3 and 4), in Chromium at 390×844 through the real pages: the party's escape
card names who rolls under DESV and how; a panic card says the rounds the companion rolled;
Tabela H row 8 reaches the players and the table screen as what happened to them."""
from __future__ import annotations

from typing import Any

from tests.browser_helpers import TABLE_PHONE, screenshot, wait_until
from tests.pages.page_helpers import Table, answered, body_text

GM_WORDS = ("Role 1d6", "3:6", "Encontro Aleatório", "Vigia faz teste", "|")


def _whole(card: Any) -> bool:
    """The card's prompt text is shown whole: no line cut off."""
    return card.locator(".prompt-text").evaluate(
        "n => n.scrollWidth <= n.clientWidth + 1 && n.scrollHeight <= n.clientHeight + 1")


def test_the_party_escape_card_names_who_rolls_under_desv(table: Table) -> None:
    ana, bruno = table.player("Ana", TABLE_PHONE), table.player("Bruno", TABLE_PHONE)
    gm = table.gm(TABLE_PHONE)
    table.command(gm, "Bruno ganha 1 de exaustão")
    table.command(gm, "fugir")
    (asked,) = [e for e in table.command(gm, "teste de fuga dificuldade 12")
                if e["kind"] == "pedido"]
    assert asked["data"]["pedido"].get("grupo") is True
    said = "Se Bruno rolar, está com DESV: role 1d20 duas vezes e fique com o pior"
    for page, name in ((ana, "ana"), (bruno, "bruno")):
        card = page.locator("#prompts .prompt")
        card.wait_for()
        shown = " ".join(card.inner_text().split())
        assert said in shown and "Ana 1d20" in shown and "Bruno 1d20" in shown, (name, shown)
        assert _whole(card), f"the card's text is cut off on {name}'s phone: {shown!r}"
        screenshot(page, f"noticia-fuga-do-grupo-{name}")
    # Bruno's own card takes both dice; Ana's (no DESV) one
    assert bruno.locator("#prompts .prompt").get_by_label("2º dado").count() == 1
    assert ana.locator("#prompts .prompt").get_by_label("2º dado").count() == 0
    gm.locator("#prompts .prompt", has_text="Se Bruno rolar").wait_for()


def _fail_a_panic(table: Table, gm: Any, ana: Any, sanity_lost: int) -> list[dict]:
    """Ana loses Sanity, is asked a panic test and types a 20 (a failure): the events."""
    table.command(gm, f"Ana perde {sanity_lost} de sanidade")
    table.command(gm, "pânico Ana")
    card = ana.locator("#prompts .prompt")
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("20")
    before = len(table.events())
    card.get_by_role("button", name="Enviar valor").click()
    answered(table, before, "o valor de Ana não chegou ao servidor")
    return wait_until(lambda: [e for e in table.events()[before:] if e["kind"] == "relato"
                               and e["data"].get("rodadas")] and table.events()[before:],
                      message="the panic's rounds were not rolled")


def test_a_panic_card_says_the_rounds_rolled(table: Table) -> None:
    ana = table.player("Ana", TABLE_PHONE)
    gm = table.gm(TABLE_PHONE)
    events = _fail_a_panic(table, gm, ana, 4)  # Sanidade 6: Tabela J 5-7, Fúria
    rounds = next(e["data"]["rodadas"] for e in events if e["data"].get("rodadas"))
    long = "rodada" if rounds == 1 else "rodadas"
    result = ana.locator("#answer-result .answer-card.failed")
    result.wait_for()
    shown = " ".join(result.inner_text().split())
    assert f"Fúria por {rounds} {long}" in shown and "1d4" not in shown, shown
    row = next(e for e in events if e["data"].get("tabela") == "Tabela J: Pânico")
    line = ana.locator(f"#log li[data-seq='{row['seq']}']")
    line.wait_for()
    assert f"por {rounds} {long}" in line.inner_text() and "1d4" not in line.inner_text()
    screenshot(ana, "noticia-panico-rodadas")


def test_an_afflicted_card_names_the_affliction_and_the_rounds_rolled(table: Table) -> None:
    ana = table.player("Ana", TABLE_PHONE)
    table.player("Bruno", TABLE_PHONE)  # with the seed 7, the random effect is then a brief one
    gm = table.gm(TABLE_PHONE)
    events = _fail_a_panic(table, gm, ana, 7)  # Sanidade 3: Tabela J 2-4, Afetado
    affliction = next(e["data"]["aflicao"] for e in events if e["data"].get("aflicao"))
    brief = next(e["data"] for e in events if e["data"].get("rodadas"))
    long = "rodada" if brief["rodadas"] == 1 else "rodadas"
    result = ana.locator("#answer-result .answer-card.failed")
    result.wait_for()
    shown = " ".join(result.inner_text().split())
    assert "Afetado" in shown and affliction in shown, shown
    assert f"{brief['efeito']} por {brief['rodadas']} {long}" in shown, shown
    assert "1d4 rodadas" not in shown and "Role 1d8" not in shown, shown
    screenshot(ana, "noticia-afetado-rodadas")


def test_tabela_h_row_8_reaches_the_players_as_what_happened(table: Table) -> None:
    ana, bruno = table.player("Ana", TABLE_PHONE), table.player("Bruno", TABLE_PHONE)
    gm = table.gm(TABLE_PHONE)
    mesa = table.mesa()
    table.command(gm, "vigia Bruno")
    events = table.command(gm, "descansar")  # seed 7, this place: Tabela H rolls 8
    row = next(e for e in events if e["data"].get("tabela") == "Tabela H: Percalços")
    assert row["data"]["total"] == 8, "com a semente 7 o descanso deveria rolar 8 na Tabela H"
    assert row["data"]["resultado"].startswith("Lenha molhada")  # the seed's row, in the data
    for page, where, name in ((ana, "#log", "ana"), (bruno, "#log", "bruno"),
                              (mesa, "#latest", "mesa")):
        shown = wait_until(lambda: (lambda text: text if "a lenha molhada apagou a fogueira"
                                    in text else None)(body_text(page)),
                           message=f"{name} did not read what happened to the fire")
        assert not [w for w in GM_WORDS if w in shown], (name, [w for w in GM_WORDS if w in shown])
        screenshot(page, f"noticia-tabela-h-8-{name}")
    # the watch's panic test is Bruno's prompt; the encounter roll stays the GM's
    bruno.locator("#prompts .prompt", has_text="teste de pânico").wait_for()
    assert ana.locator("#prompts .prompt").count() == 0
    fire = [e for e in events if e["data"].get("chance") == "3:6"]
    assert fire and all(e["visibility"] == "gm" for e in fire)
