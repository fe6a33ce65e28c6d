"""The "Regras" screen on the GM's phone (issue 19), in Chromium at 390×844: add a region, edit
a row, see the next encounter use it, see a bad dice expression refused in place (the server's
own loader, a dry run), change a torch's duration and put it back, export the file and import
one; no accessibility violation on the screen."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe

from companion.rules import overlay
from tests.browser_helpers import TABLE_PHONE, readme_screenshot, screenshot, wait_until
from tests.pages.page_helpers import Table


def open_rules(gm: Any) -> None:
    gm.get_by_role("button", name="Regras").click()
    gm.locator("#rules-regions details.region").first.wait_for()


def test_the_gm_gives_the_campaign_a_region_from_the_phone(table: Table, tmp_path: Path) -> None:
    gm = table.gm(TABLE_PHONE)
    ana = table.player("Ana", TABLE_PHONE)
    open_rules(gm)
    assert not gm.locator("#command").is_visible()  # the screen takes the phone…
    width = "document.documentElement.scrollWidth"
    assert gm.evaluate(width) <= TABLE_PHONE["width"]  # …and no more than the phone

    # a new region, its table started from its terrain's
    gm.get_by_label("Nome da região").last.fill("Floresta Sombria")
    gm.locator("#nova-regiao-terreno").select_option("floresta")
    gm.get_by_role("button", name="Criar região").click()
    region = gm.locator("#regiao-floresta-sombria")
    region.wait_for()
    wait_until(lambda: table.session.overrides.get("encontros"),
               message="a região não foi criada")
    assert region.evaluate("d => d.open")
    # the terrain's rows copied with their dice in the count field only (issue 31 item 6)
    first = region.locator(".rule-row").nth(0)
    assert first.locator(".row-text").input_value() == "Aranhas gigantes"
    assert first.locator(".row-count").input_value() == "1d4"
    assert table.session.overrides["encontros"]["regioes"]["floresta-sombria"]["linhas"][1] == {
        "texto": "Aranhas gigantes", "quantidade": "1d4"}

    # a row edited; a bad dice expression refused in place, as it is typed
    rows = region.locator(".rule-row")
    rows.nth(3).locator(".row-text").fill("Ent furioso")
    count = rows.nth(1).locator(".row-count")
    count.fill("muitos")
    message = region.locator("#regiao-floresta-sombria-msg")
    wait_until(lambda: "deveria ser uma expressão de dados" in message.inner_text(),
               message="a quantidade ruim não foi recusada")
    # in the form's words, not the file's key (issue 31 item 6)
    assert "Linha 2: Quantos aparecem (dados) deveria ser uma expressão de dados" in \
        message.inner_text(), message.inner_text()
    assert "linhas.2" not in message.inner_text() and "tables/" not in message.inner_text()
    assert count.get_attribute("aria-invalid") == "true"
    stored = table.session.overrides["encontros"]["regioes"]["floresta-sombria"]["linhas"]
    assert stored[4] != "Ent furioso"  # typing is a dry run: nothing changed yet
    screenshot(gm, "regras-dado-ruim", full_page=False)
    count.fill("1d4")
    wait_until(lambda: message.inner_text().strip() == "", message="o aviso não saiu")
    # move the edited row to the top, then save
    rows.nth(3).get_by_role("button", name="Subir a linha 4").click()
    rows.nth(2).get_by_role("button", name="Subir a linha 3").click()
    rows.nth(1).get_by_role("button", name="Subir a linha 2").click()
    assert rows.nth(0).locator(".row-text").input_value() == "Ent furioso"
    region.get_by_role("button", name="Salvar região").click()
    wait_until(lambda: table.session.overrides["encontros"]["regioes"]["floresta-sombria"][
        "linhas"][1] == "Ent furioso", message="a região não foi salva")
    assert gm.evaluate(width) <= TABLE_PHONE["width"]
    readme_screenshot(gm, "regras", height=1400)

    # the next encounter uses it; the players never see the table
    gm.get_by_role("button", name="Voltar à mesa").click()
    table.command(gm, "região Floresta Sombria")
    rolled = [e for e in table.command(gm, "encontro")
              if e["data"].get("tabela") == "Encontros: Floresta Sombria"]
    assert rolled and rolled[0]["visibility"] == "gm"
    texts = [row if isinstance(row, str) else row["texto"] for row in
             table.session.overrides["encontros"]["regioes"]["floresta-sombria"]["linhas"].values()]
    assert rolled[0]["data"]["resultado"] in texts
    assert "Ent furioso" not in ana.locator("body").inner_text()

    # a torch's duration changed, then back to the default
    open_rules(gm)
    torch = gm.locator("#regra-casa-luz-tocha-turnos")
    torch.fill("0")
    torch_message = gm.locator("#regra-casa-luz-tocha-turnos-msg")
    wait_until(lambda: "de 1 para cima" in torch_message.inner_text(), message="0 turnos passou")
    torch.fill("2")
    torch.press("Tab")
    wait_until(lambda: table.session.tables.get("casa", "luz", "tocha", "turnos") == 2,
               message="a tocha não mudou")
    reset = gm.get_by_role("button", name="Voltar luz › tocha › turnos que dura ao padrão (6)")
    reset.click()
    wait_until(lambda: "casa" not in table.session.overrides, message="a tocha não voltou")

    # export, then import a file (a bad one is refused naming the row, nothing changes)
    with gm.expect_download() as download:
        gm.get_by_role("button", name="Exportar arquivo").click()
    saved = tmp_path / "baixado.yaml"
    download.value.save_as(saved)
    words = table.session.tables.narration
    assert overlay.load(saved.read_text(encoding="utf-8"), words) == table.session.overrides
    bad = tmp_path / "ruim.yaml"
    bad.write_text("casa: {luz: {tocha: {turnos: -2}}}\n", encoding="utf-8")
    before = dict(table.session.overrides)
    gm.set_input_files("#rules-import", str(bad))
    status = gm.locator("#rules-status")
    wait_until(lambda: "ruim.yaml" in status.inner_text(), message="a importação ruim não disse")
    assert "'luz.tocha.turnos' deveria ser" in status.inner_text()
    assert table.session.overrides == before
    good = tmp_path / "boa.yaml"
    good.write_text(overlay.export_text({"casa": {"luz": {"tocha": {"turnos": 3}}}}, words),
                    encoding="utf-8")
    gm.set_input_files("#rules-import", str(good))
    wait_until(lambda: table.session.tables.get("casa", "luz", "tocha", "turnos") == 3,
               message="a importação não valeu")
    wait_until(lambda: torch.input_value() == "3", message="a tela não mostrou a tocha nova")

    found = Axe().run(gm).response["violations"]
    assert [f"{v['id']}: {[n['target'] for n in v['nodes'][:3]]}" for v in found] == []


def test_a_regions_preposition_is_set_on_the_rules_screen(table: Table) -> None:
    """Issue 26: the region's preposition ("na Floresta Sombria") has its field on the Regras
    screen: a wrong one is refused in place, in Portuguese, with the accepted ones; a right
    one is saved and the table hears the region said with it."""
    gm = table.gm(TABLE_PHONE)
    open_rules(gm)
    gm.get_by_label("Nome da região").last.fill("Floresta Sombria")
    gm.locator("#nova-regiao-terreno").select_option("floresta")
    gm.get_by_role("button", name="Criar região").click()
    region = gm.locator("#regiao-floresta-sombria")
    region.wait_for()
    wait_until(lambda: table.session.overrides.get("encontros"),
               message="a região não foi criada")
    field = region.get_by_label("Preposição (na, no, nas, nos, em)")
    assert field.input_value() == ""
    field.fill("dentro da")
    message = region.locator("#regiao-floresta-sombria-msg")
    wait_until(lambda: "uma destas preposições: na, no, nas, nos ou em" in message.inner_text(),
               message="a preposição ruim não foi recusada")
    assert "'dentro da'" in message.inner_text()
    assert field.get_attribute("aria-invalid") == "true"
    assert gm.evaluate("document.documentElement.scrollWidth") <= TABLE_PHONE["width"]
    field.fill("Na")
    wait_until(lambda: message.inner_text().strip() == "", message="o aviso não saiu")
    region.get_by_role("button", name="Salvar região").click()
    wait_until(lambda: table.session.overrides["encontros"]["regioes"]["floresta-sombria"].get(
        "preposicao") == "na", message="a preposição não foi salva")
    gm.get_by_role("button", name="Voltar à mesa").click()
    said = [e["text"] for e in table.command(gm, "região Floresta Sombria")]
    assert "O grupo está na Floresta Sombria (Floresta)." in said, said


def test_the_new_region_refusal_goes_while_the_name_is_retyped(table: Table) -> None:
    """Issue 31 item 6: "Nova região" refused (a terrain's name) says so, in the form's words;
    typing the name again takes the refusal away (it was about the name as it was)."""
    gm = table.gm(TABLE_PHONE)
    open_rules(gm)
    name = gm.get_by_label("Nome da região").last
    name.fill("Pântano")
    gm.get_by_role("button", name="Criar região").click()
    message = gm.locator("#nova-regiao-msg")
    wait_until(lambda: "nome de um terreno" in message.inner_text(),
               message="o nome de terreno não foi recusado")
    assert "tables/" not in message.inner_text() and "regioes." not in message.inner_text()
    screenshot(gm, "regras-nova-regiao-recusada", full_page=False)
    name.press("End")
    name.type(" Negro")
    wait_until(lambda: message.inner_text().strip() == "", message="a recusa ficou na tela")
    screenshot(gm, "regras-nova-regiao-redigitada", full_page=False)
