"""The pages take their words from the server: with labels changed only in a copy of tables/
($COMPANION_TABLES), the GM's and the player's pages in real Chromium show the new labels, and
the renamed button still runs its command."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.rules.loader import load_rules as load_tables
from companion.tables.files import DEFAULT_DIR
from tests.browser_helpers import wait_until
from tests.pages.page_helpers import Table, answered, live_table


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path.name, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def renamed(tmp_path: Path, browser: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    copy = tmp_path / "tabelas"
    shutil.copytree(DEFAULT_DIR, copy)
    pages = copy / "paginas.yaml"
    _rewrite(pages, "{rotulo: Avançar, comando: avançar}", "{rotulo: Seguir a estrada, comando: avançar}")
    _rewrite(pages, "  viagem: Viagem\n", "  viagem: Estrada\n")
    _rewrite(pages, '  marcha_forcada: "Teste de CON da marcha forçada"\n',
             '  marcha_forcada: "Pé na estrada: teste de CON"\n')
    _rewrite(pages, "  exaustao: Receber 1 de exaustão\n", "  exaustao: Aceitar o cansaço\n")
    _rewrite(pages, "  descansar: Descansar 2 rodadas\n", "")  # falls back to nomes_opcoes
    _rewrite(copy / "pedidos.yaml", "  descansar: descansar\n", "  descansar: repousar de verdade\n")
    # sentences changed only in tables/narracao: the result card still reads the data
    _rewrite(copy / "narracao" / "viagem.yaml", "{{ nome }} aguenta a marcha forçada",
             "{{ nome }} segue firme na marcha forçada")
    _rewrite(copy / "narracao" / "pedidos.yaml", "O Mestre, por {{ quem }},",
             "A mesa, por {{ quem }},")
    monkeypatch.setenv("COMPANION_TABLES", str(copy))
    tables = load_tables()
    assert tables.directory == copy
    with live_table(tmp_path, tables, browser) as live:
        yield live


def test_the_pages_show_the_labels_of_the_tables_they_are_given(renamed: Table) -> None:
    table = renamed
    ana = table.player("Ana")
    gm = table.gm()
    # the page is connected before its first estado arrives: wait for the name, then compare
    gm.locator("#mode-name", has_text="estrada").wait_for()
    assert gm.locator("#mode-name").text_content() == "estrada"
    ana.locator(".mode-tag", has_text="Estrada").first.wait_for()
    assert ana.locator(".mode-tag").first.text_content() == "Estrada"
    assert gm.get_by_role("button", name="Avançar", exact=True).count() == 0
    advance = gm.get_by_role("button", name="Seguir a estrada")
    for _ in range(3):  # the renamed button still sends "avançar"
        before = len(table.events())
        advance.click()
        wait_until(lambda: len(table.events()) > before, message="o botão não avançou")
    assert [c.name for c in table.session.commands()][-3:] == ["avancar"] * 3
    march = next(p for p in table.session.state.prompts if p.kind == "marcha_forcada")
    card = ana.locator(".prompt.current")
    card.get_by_role("heading", name="Pé na estrada: teste de CON").wait_for()
    gm.locator(f"#prompts .prompt[data-pedido='{march.id}'] h3",
               has_text="Pé na estrada: teste de CON").wait_for()
    # Ana fails the test at the table: the choice's buttons carry the copy's labels
    card.get_by_label("Rolou o dado na mesa? Digite o valor:").fill("1")
    before = len(table.events())
    card.get_by_role("button", name="Enviar valor").click()
    answered(table, before, "o valor de Ana não chegou")
    choice = wait_until(lambda: [p for p in table.session.state.prompts
                                 if p.kind == "escolha_marcha"],
                        message="Ana não recebeu a escolha")[0]
    gm_card = gm.locator(f"#prompts .prompt[data-pedido='{choice.id}']")
    gm_card.get_by_role("button", name="Aceitar o cansaço").wait_for()
    gm_card.get_by_role("button", name="Repousar de verdade").wait_for()
    mine = ana.locator(".prompt.current")
    mine.get_by_role("button", name="Repousar de verdade").wait_for()
    before = len(table.events())
    mine.get_by_role("button", name="Aceitar o cansaço").click()
    chosen = answered(table, before, "a escolha de Ana não chegou")
    assert chosen["data"]["opcao"] == "exaustao"
    ana.locator(".headline", has_text="Você escolheu: Aceitar o cansaço").wait_for()


def test_the_result_card_reads_data_not_the_sentences(renamed: Table) -> None:
    """The forced march's result says neither 'passa' nor 'falha', and the GM's answer for a
    player no longer starts with 'O Mestre': the card still says who answered and the verdict
    (the prompt's DC against the total; whether this page sent the answer)."""
    table = renamed
    ana = table.player("Ana")
    gm = table.gm()
    advance = gm.get_by_role("button", name="Seguir a estrada")

    def next_march(rounds: int) -> Any:
        for _ in range(rounds):
            before = len(table.events())
            advance.click()
            wait_until(lambda: len(table.events()) > before, message="o botão não avançou")
        return wait_until(lambda: [p for p in table.session.state.prompts
                                   if p.kind == "marcha_forcada"],
                          message="Ana não recebeu a marcha forçada")[0]

    march = next_march(3)  # the third round in a row asks for the test
    card = ana.locator(".prompt.current")
    value = card.get_by_label("Rolou o dado na mesa? Digite o valor:")
    assert value.get_attribute("placeholder") == "1 a 20"  # the die's faces, from its dice
    value.fill("20")
    before = len(table.events())
    card.get_by_role("button", name="Enviar valor").click()
    answer = answered(table, before, "o valor de Ana não chegou")
    assert "segue firme" in " ".join(e["text"] for e in table.events()[before:])
    assert answer["data"]["total"] >= march.dc
    result = ana.locator("#answer-result .answer-card.passed")
    result.wait_for()
    assert result.locator(".headline").inner_text().startswith("Você tirou 20")
    assert "passou" in result.locator(".headline").inner_text()
    march = next_march(1)  # and so does the fourth
    before = len(table.events())
    table.command(gm, f"responder pedido {march.id} 20")
    answer = answered(table, before, "o Mestre não respondeu por Ana")
    assert answer["text"].startswith("A mesa, por Ana,")
    headline = ana.locator("#answer-result .answer-card.passed .headline")
    headline.wait_for()
    assert headline.inner_text().startswith("O Mestre rolou por você: 20")
