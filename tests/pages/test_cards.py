"""The GM's phone at the table (issue 17, items 12–14), in Chromium at 390×844: a public roll
says who rolled on every page and the table screen; stacked prompt cards each keep their target
and which die DESV keeps, and a DESV prompt takes the two values on the phone; instructions meant
for the GM reach the GM only, while the players see the fact."""
from __future__ import annotations

from typing import Any

from tests.browser_helpers import TABLE_PHONE, readme_screenshot, screenshot, seen_by, wait_until
from tests.pages.page_helpers import Table



def test_a_public_roll_says_who_rolled_on_every_page_and_the_table_screen(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    carla, bia = table.player("Carla", TABLE_PHONE), table.player("Bia", TABLE_PHONE)
    mesa = table.mesa()
    table.command(gm, "Carla ganha 1 de exaustão")
    before = len(table.events())
    carla.locator("#dice").get_by_role("button", name="d20", exact=True).click()
    roll = wait_until(lambda: next((e for e in table.events()[before:]
                                    if e["kind"] == "rolagem"), None),
                      message="Carla's roll did not reach the server")
    assert roll["visibility"] == "public" and roll["data"]["quem"] == "Carla"
    data = roll["data"]
    assert data["vantagem"] == "desvantagem"
    said = f"desvantagem; descartado {data['descartado']}"
    for page, where in ((gm, "#log"), (carla, "#log"), (bia, "#log"), (mesa, "#latest")):
        item = page.locator(f"{where} li[data-seq]", has_text=said).first
        item.wait_for()
        shown = " ".join(item.inner_text().split())
        assert shown.startswith("Carla:") and str(data["total"]) in shown, (where, shown)
    screenshot(mesa, "mesa-quem-rolou")
    wait_until(lambda: "Carla:" in gm.locator("#last-result").inner_text(),
               message=f"the GM's last result does not say who rolled: "
               f"{gm.locator('#last-result').inner_text()!r}")


def not_cut(card: Any) -> bool:
    """The card's prompt text is shown whole: no line cut off with an ellipsis."""
    return card.locator(".prompt-text").evaluate(
        "n => n.scrollWidth <= n.clientWidth + 1 && n.scrollHeight <= n.clientHeight + 1")


def test_stacked_desv_prompts_keep_their_targets_and_take_two_values(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    carla = table.player("Carla", TABLE_PHONE)
    table.command(gm, "Carla ganha 1 de exaustão")
    table.command(gm, "pânico Carla")
    for _ in range(6):  # the third 'avançar' in a row asks the forced march's CON test
        if any(p.kind == "marcha_forcada" for p in table.session.state.prompts):
            break
        table.command(gm, "avançar")
    kinds = [p.kind for p in table.session.state.prompts]
    assert kinds == ["panico", "marcha_forcada"], kinds
    # the player's phone: the older card (panic: roll under, DESV keeps the higher) and the
    # current one (CON: DESV keeps the lower), each with its target, whole
    older = carla.locator(".prompt.compact")
    current = carla.locator(".prompt.current")
    current.wait_for()
    older.wait_for()
    for card, target, kept in ((older, "passa com 10 ou menos", "o maior"),
                               (current, "DC 12", "o menor")):
        shown = card.inner_text()
        assert target in shown and kept in shown, shown
        assert not_cut(card), f"the card's text is cut off: {shown!r}"
    # the GM's phone: the older card keeps them too
    gm_older = gm.locator(".prompt.for-gm.older")
    gm_older.wait_for()
    assert "passa com 10 ou menos" in gm_older.inner_text() and not_cut(gm_older)
    screenshot(carla, "jogador-pedidos-empilhados")
    screenshot(gm, "mestre-pedidos-empilhados")
    readme_screenshot(carla, "jogador-pedidos-empilhados", height=1300)
    # two values typed on the phone for the DESV panic test: the higher one counts
    older.get_by_label("1º dado").fill("5")
    older.get_by_label("2º dado").fill("16")
    before = len(table.events())
    older.get_by_role("button", name="Enviar valores").click()
    answer = wait_until(lambda: next((e for e in table.events()[before:]
                                      if e["kind"] == "resposta"), None),
                        message="the two values did not reach the server")
    assert answer["data"]["tipo"] == "panico" and answer["data"]["natural"] == 16, answer
    carla.locator(".prompt.compact").wait_for(state="detached")
    assert [p.kind for p in table.session.state.prompts] == ["marcha_forcada"]


def test_instructions_for_the_gm_reach_the_gm_only(table: Table) -> None:
    gm = table.gm(TABLE_PHONE)
    ana = table.player("Ana", TABLE_PHONE)
    mesa = table.mesa()
    table.command(gm, "vigia")
    table.command(gm, "fugir")
    for page, where in ((gm, "#log"), (ana, "#log"), (mesa, "#latest")):
        page.locator(f"{where} li", has_text="O grupo declara fuga").wait_for()
        page.locator(f"{where} li", has_text="Vigia: Ana").wait_for()
    wait_until(lambda: max(
        [int(s) for s in ana.eval_on_selector_all("#log li[data-seq]", "ls => ls.map(l => l.dataset.seq)")]
        or [0]) >= len(seen_by(table.events(), "player:ana")))
    for page in (ana, mesa):
        shown = page.locator("body").inner_text()
        for instruction in ("fuga sucesso", "fuga falha", "diga 'vigia"):
            assert instruction not in shown.lower(), (instruction, shown)
    gm.locator("#log li", has_text="'fuga sucesso', 'fuga falha'").wait_for()
    gm.locator("#log li", has_text="diga 'vigia Nome'").wait_for()


def test_the_party_escape_test_is_on_every_phone_and_the_first_answer_closes_it(
        table: Table) -> None:
    """Issue 17: 'teste de fuga dificuldade 12' with no name reaches every player's phone
    (saying any may answer and the first answer counts), the GM's card says it is the group's,
    and the first answer removes the card from every phone."""
    gm = table.gm(TABLE_PHONE)
    ana, bia = table.player("Ana", TABLE_PHONE), table.player("Bia", TABLE_PHONE)
    table.command(gm, "personagem Bia des 3")
    table.command(gm, "fugir do combate")
    table.command(gm, "fuga sucesso")
    table.command(gm, "teste de fuga dificuldade 12")
    for phone in (ana, bia):
        card = phone.locator(".prompt.current")
        card.wait_for()
        text = " ".join(card.inner_text().split())
        assert "A primeira resposta vale para todos" in text, text
    # each phone shows its own modifier: Bia's DES +3
    wait_until(lambda: "1d20+3" in bia.locator(".prompt.current").inner_text(),
               message=bia.locator(".prompt.current").inner_text())
    gm_card = gm.locator("#prompts .prompt.for-gm")
    gm_card.wait_for()
    assert "Grupo" in gm_card.locator(".who").inner_text()
    screenshot(bia, "jogador-teste-do-grupo", full_page=False)
    bia.locator(".prompt.current input[type=number]").first.fill("11")
    bia.locator(".prompt.current").get_by_role("button", name="Enviar valor").click()
    wait_until(lambda: ana.locator(".prompt").count() == 0,
               message="o cartão do teste do grupo ficou no celular da Ana")
    assert table.session.state.chase is not None and table.session.state.chase.score == 1
    answered = ana.locator("#log li[data-seq]", has_text="pelo grupo, vale para todos").first
    answered.wait_for()
    assert "Bia" in answered.inner_text()
