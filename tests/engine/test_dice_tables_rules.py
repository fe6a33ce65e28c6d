"""`tabela X` reads every seed table of tables/dados.yaml `tabelas` as the typed piece that owns
it: a change in the data changes what is shown, and an entry no piece types is refused at load
with the file and the key."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine import Command, apply, initial_state
from companion.engine.model import Event, State
from companion.engine.procedures.conditions import ConditionRules
from companion.engine.procedures.dice_tables import DiceRules, typed_tables
from companion.engine.procedures.dungeon import DungeonRules
from companion.engine.procedures.encounters import EncounterTables
from companion.engine.procedures.travel import AdvanceTable
from companion.tables.errors import TableError
from companion.tables.rulebook import typed_at
from companion.tables.files import Tables
from tests.rules_helpers import changed_rules


def run(tables: Tables, *commands: Command, seed: int = 1) -> tuple[State, list[Event]]:
    """Apply the commands in order; the events of the last one."""
    state = initial_state(tables)
    events: list[Event] = []
    for index, command in enumerate(commands):
        state, events = apply(state, command, random.Random(f"{seed}:{index}"), tables)
    return state, events


def table(key: str) -> Command:
    return Command("tabela", {"tabela": key})


def test_each_entry_is_the_typed_value_of_its_place(tables: Tables) -> None:
    typed = tables.derived(typed_tables)
    assert set(typed) == set(tables.piece(DiceRules).tabelas)
    assert typed["a"] is tables.piece(AdvanceTable)  # the piece declared at viagem.tabela_a
    assert typed["masmorra_c"] is tables.piece(DungeonRules).tabela_c  # a field of a file's piece
    assert typed["encontros"] is tables.piece(EncounterTables).regioes


@pytest.mark.parametrize("setup", [(), (Command("masmorra", {"perigo": "mortal"}),)])
def test_every_table_is_shown_with_its_name(tables: Tables, setup: tuple[Command, ...]) -> None:
    typed = tables.derived(typed_tables)
    for key in tables.piece(DiceRules).tabelas:
        _, events = run(tables, *setup, table(key))
        assert events, key
        name = events[0].data["tabela"]
        assert name == getattr(typed[key], "nome", None) or key == "encontros", key


def test_a_changed_value_changes_what_an_explained_table_shows(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "hexes: {andando: 0.5,", "hexes: {andando: 0.25,")
    _, events = run(rules, table("a"))
    assert events[0].data["linhas"][0] == "Andando: 1/4 hex por rodada ◀ agora"


def test_a_changed_level_changes_what_the_dungeon_table_shows(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "masmorra.yaml", 'texto: "3:6 a cada 4 horas."',
                          'texto: "3:6 a cada 5 horas."')
    _, events = run(rules, Command("masmorra", {"perigo": "inseguro"}), table("masmorra_c"))
    assert "3:6 a cada 5 horas. ◀ agora" in events[0].data["linhas"][0]


def test_a_changed_value_changes_what_a_rolled_table_shows(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "panico.yaml", 'dados: "1d8"', 'dados: "1d4"')
    _, events = run(rules, table("k"))
    assert events[0].data["dados"] == "1d4" and events[0].data["total"] <= 4
    rules = changed_rules(tmp_path, "encontros.yaml", 'nome: "Encontros: Planície"',
                          'nome: "Encontros nos campos"')
    _, events = run(rules, table("encontros"))
    assert events[0].data["tabela"] == "Encontros nos campos"


@pytest.mark.parametrize("old, new, message", [
    ("chave: tabela_k,", "chave: tabela_z,",
     "tables/dados.yaml: 'tabelas.k.chave' deveria ser uma parte de tables/panico.yaml que o "
     "companion lê tipada (nenhuma peça lê 'tabela_z')"),
    ("{arquivo: masmorra, chave: tabela_b,", "{arquivo: masmorra, chave: tabela_z,",
     "tables/dados.yaml: 'tabelas.masmorra_b.chave' deveria ser uma parte de "
     "tables/masmorra.yaml que o companion lê tipada (nenhuma peça lê 'tabela_z')"),
    ("chave: tabela_i, forma: textos", "chave: tabela_i, forma: grupos",
     "tables/dados.yaml: 'tabelas.i.forma' deveria ser uma forma que tables/exaustao.yaml "
     "'tabela_i' tem (falta 'grupos')"),
    ("dados: dados_avancar", "dados: dados_voando",
     "tables/dados.yaml: 'tabelas.d.dados' deveria ser uma forma que tables/viagem.yaml "
     "'tabela_d' tem (falta 'dados_voando')"),
])
def test_an_entry_no_piece_types_is_refused_at_load(tmp_path: Path, old: str, new: str,
                                                    message: str) -> None:
    with pytest.raises(TableError) as refused:
        changed_rules(tmp_path, "dados.yaml", old, new)
    assert str(refused.value) == message


def test_a_place_is_typed_by_the_closest_piece_that_reads_it(tables: Tables) -> None:
    effects = typed_at(tables.piece, "viagem", "efeitos_de_condicao")  # a field of viagem's piece
    assert effects is tables.piece(ConditionRules).efeitos_de_condicao
    assert typed_at(tables.piece, "viagem", "tabela_a") is tables.piece(AdvanceTable)
    assert typed_at(tables.piece, "masmorra", "tabela_a", "niveis") is \
        tables.piece(DungeonRules).tabela_a.niveis  # and down its keys
    for place in (("viagem", "tabela_z"), ("masmorra", "tabela_z"), ("nenhum", "tabela_a"),
                  ("masmorra", "tabela_a", "zz")):
        with pytest.raises(LookupError):
            typed_at(tables.piece, *place)
