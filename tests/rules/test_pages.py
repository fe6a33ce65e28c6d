"""tables/paginas.yaml: what the pages show, checked at load (errors name the file and the key),
and every button it gives sends a command the parser reads."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.commands.parse import parse
from companion.rules import pages
from companion.rules.loader import load_rules as load_tables
from companion.tables.errors import TableError
from companion.tables.files import DEFAULT_DIR, Tables


def broken(tmp_path: Path, old: str, new: str) -> str:
    folder = tmp_path / "tables"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "paginas.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(TableError) as error:
        load_tables(folder)
    assert "tables/paginas.yaml" in error.value.message
    return error.value.message


@pytest.mark.parametrize("old, new, key", [
    ("  masmorra: Masmorra\n", "", "modos.masmorra"),
    ("  masmorra: Masmorra\n", "  masmorra: Masmorra\n  pantano: Pântano\n", "modos.pantano"),
    ("    - {rotulo: Turno, comando: turno}\n", "    - {rotulo: Turno}\n", "botoes.masmorra[0].comando"),
    ("  fuga: Teste de fuga\n", "  fuga: Teste de fuga\n  duelo: Duelo\n", "titulos_pedidos.duelo"),
    ("  nao: Não\n", "  nao: Não\n  talvez: Talvez\n", "opcoes.talvez"),
    ("dados_jogador: [d4,", "dados_jogador: [dado,", "dados_jogador[0]"),
    ("  padrao: Pedido do Mestre\n", "", "titulos_pedidos.padrao"),
    ("  liberar: Liberar\n", "", "lugares.liberar"),
    ("  fechar: Fechar\n", "  fechar: Fechar\n  abrir: Abrir\n", "lugares"),
])
def test_a_broken_pages_file_names_file_and_key(tmp_path: Path, old: str, new: str,
                                                key: str) -> None:
    assert key in broken(tmp_path, old, new)


def test_every_button_sends_a_command_of_its_mode(tables: Tables) -> None:
    data = pages.page_data(tables)
    specs = tables.get("comandos", "comandos")
    assert set(data["botoes"]) == set(tables.get("comandos", "modos")) == set(data["modos"])
    for mode, buttons in data["botoes"].items():
        assert buttons
        for button in buttons:
            parsed = parse(button["comando"], tables)
            assert parsed.command is not None, (mode, button, parsed.error)
            modes = specs[parsed.command.name].get("modos", ["todos"])
            assert "todos" in modes or mode in modes, (mode, button)
    for die in data["dados_jogador"]:
        assert parse(f"rolar 1{die}", tables).command.name == "rolar"


def test_the_pages_data_is_built_once_per_load_of_the_rules(tmp_path: Path) -> None:
    rules = load_tables(DEFAULT_DIR)  # load_rules checks the pages once, and keeps them
    assert pages.load(rules) is pages.load(rules)
    assert pages.page_data(rules) == pages.page_data(rules)
    assert pages.load(load_tables(DEFAULT_DIR)) is not pages.load(rules)  # a new load: anew


def test_a_prompt_cards_title_takes_its_result_suffix_cleanly(tables: Tables) -> None:
    """The result card reads '<title>: resultado': a title with its own colon read 'Falhou na
    marcha forçada: escolha: resultado'."""
    titles = tables.get("paginas", "titulos_pedidos")
    assert [t for t in titles.values() if ":" in str(t)] == []
