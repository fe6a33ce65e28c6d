"""core: Tabela I levels and the session's start read from tables/, and the schema leaves."""
from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from companion.engine import Command, apply, initial_state
from companion.tables.narration import counted, duration_text
from companion.engine.characters import edge_for, modifier
from companion.tables.protocol import spoken_name
from companion.engine.model import Dungeon, Lasting, State, Travel
from companion.tables.errors import CommandRejected, TableError
from companion.tables.rulebook import PIECES, build_piece
from companion.tables.files import DEFAULT_DIR, Tables
from companion.rules.loader import load_rules
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character

TIRED = {level: new_character(id="ana", name="Ana", exhaustion=level, mods={"des": 2, "con": 1})
         for level in range(5)}


def changed(tables: Tables, change: Callable[[dict[str, Any]], None]) -> Tables:
    """A copy of the tables with `change` applied to its files."""
    files = copy.deepcopy(dict(tables.files))
    change(files)
    return Tables(files=files, directory=tables.directory)


def swap_levels(files: dict[str, Any]) -> None:
    """DESV from level 2, no modifiers from level 1 (the seed has it the other way round)."""
    rows = files["exaustao"]["tabela_i"]["linhas"]
    rows["1"]["efeito"], rows["2"]["efeito"] = rows["2"]["efeito"], rows["1"]["efeito"]


# ---------------------------------------------------------------- Tabela I from data

@pytest.mark.parametrize("level", range(5))
def test_seed_levels_dis_advantage_from_1_and_no_modifiers_from_2(tables, level):
    character = TIRED[level]
    assert edge_for(character, tables, 0) == ("desvantagem" if level >= 1 else None)
    assert modifier(character, "des", tables) == (0 if level >= 2 else 2)


@pytest.mark.parametrize("level", range(5))
def test_the_levels_come_from_the_rows_efeito(tables, level):
    swapped = changed(tables, swap_levels)
    character = TIRED[level]
    assert edge_for(character, swapped, 0) == ("desvantagem" if level >= 2 else None)
    assert modifier(character, "des", swapped) == (0 if level >= 1 else 2)


def test_an_effect_no_row_has_never_applies(tables):
    def drop_edge(files: dict[str, Any]) -> None:
        files["exaustao"]["tabela_i"]["linhas"]["1"]["efeito"] = "sem_modificadores"
    no_edge = changed(tables, drop_edge)
    assert edge_for(TIRED[4], no_edge, 0) is None
    assert modifier(TIRED[1], "des", no_edge) == 0


def test_inside_apply_call_sites_without_tables_read_the_commands_tables(tables):
    """hexcrawl calls edge_for/modifier without tables: the command's own tables decide."""
    swapped = changed(tables, swap_levels)
    forest = next(int(row["modificador"]) for row in tables.get("viagem", "tabela_g", "linhas")
                  if "floresta" in row["terrenos"])
    state = State(party=(TIRED[1],), travel=Travel(terrain="floresta"))
    # seed: level 1 rolls with DESV (keeps the 4) and keeps DES +2;
    # swapped: level 1 has no DESV (keeps the first die, 18) but loses DES +2.
    for used, total, edge in ((tables, 4 + 2 + forest, True), (swapped, 18 + forest, False)):
        # the named activity opens the round: initial weather, drift, encounter check first
        _, events = apply(state, Command("criar_municao", {"personagem": "Ana"}),
                          FixedDice(3, 3, 6, 18, 4), used)
        roll = next(e for e in events if e.data.get("tabela") == "Tabela G: Criar Munição")
        assert roll.data["total"] == total and ("vantagem" in roll.data) is edge


# ---------------------------------------------------------------- the session's start

def test_initial_state_reads_inicio_yaml(tables):
    def winter_swamp(files: dict[str, Any]) -> None:
        start = files["inicio"]
        start["estacao"]["valor"], start["terreno"]["valor"] = "inverno", "pantano"
        start["modo"]["valor"], start["perigo"]["valor"] = "navegando", "mortal"
    state = initial_state(changed(tables, winter_swamp))
    assert (state.travel.season, state.travel.terrain, state.travel.day_start_terrain,
            state.travel.mode, state.dungeon.danger) == (
        "inverno", "pantano", "pantano", "navegando", "mortal")
    assert not state.dungeon.active and state.travel.weather_row is None


def test_shipped_start_is_marked_as_house_default(tables):
    start = tables["inicio"]
    assert {key: value["padrao_da_casa"] for key, value in start.items()} == {
        "estacao": True, "terreno": True, "modo": True, "perigo": True}
    state = initial_state(tables)
    assert state.travel.terrain == start["terreno"]["valor"]


def test_a_bad_starting_value_fails_at_load(tmp_path: Path):
    folder = tmp_path / "tables"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "inicio.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("valor: pantano", "valor: lava")
                    .replace("valor: planicie", "valor: lava"), encoding="utf-8")
    with pytest.raises(TableError) as error:
        load_rules(folder)
    assert "tables/inicio.yaml" in error.value.message and "terreno.valor" in error.value.message
    assert "planicie" in error.value.message  # says what would be accepted


def broken_panico(tables: Tables, change: Callable[[dict[str, Any]], None],
                  file: str = "panico") -> None:
    """Load `file` changed: every typed piece declared in it."""
    data = copy.deepcopy(tables[file])
    change(data)
    for cls, place in PIECES.items():
        if place.file == file:
            build_piece(cls, {**tables.files, file: data}, tables.narration)


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        if value is None:
            del node[path[-1]]
        else:
            node[path[-1]] = value
    return change


@pytest.mark.parametrize("file,path,value,where", [
    ("panico", ("tabela_j", "linhas", "5-7", "duracao"), None, "tabela_j.linhas.5-7.duracao"),
    ("panico", ("tabela_j", "linhas", "5-7", "duracao"), "umas rodadas",
     "tabela_j.linhas.5-7.duracao"),
    ("panico", ("tabela_j", "linhas", "8-10", "atributo"), "sorte",
     "tabela_j.linhas.8-10.atributo"),
    ("panico", ("tabela_j", "linhas", "8-10", "dano"), "dois", "tabela_j.linhas.8-10.dano"),
    ("panico", ("tabela_j", "linhas", "1", "condicao"), None, "tabela_j.linhas.1.condicao"),
    ("panico", ("tabela_j", "linhas", "14+", "efeito"), "pânico", "tabela_j.linhas.14+.efeito"),
    ("exaustao", ("tabela_i", "linhas", "1", "efeito"), "cansado", "tabela_i.linhas.1.efeito"),
    ("exaustao", ("tabela_i", "linhas", "3", "dano_diario"), None,
     "tabela_i.linhas.3.dano_diario"),
    ("dados", ("tabelas", "d", "dados"), None, "tabelas.d.dados"),
    ("dados", ("tabelas", "f", "forma"), "sortear", "tabelas.f.forma"),
    ("dados", ("tabelas", "encontros", "visibilidade"), "jogadores",
     "tabelas.encontros.visibilidade"),
    ("dados", ("tabelas", "k", "arquivo"), None, "tabelas.k.arquivo"),
    ("dados", ("rolagens", "secreta_padrao"), None, "rolagens.secreta_padrao"),
    ("dados", ("rolagens", "secreta_padrao"), "d", "rolagens.secreta_padrao"),
    ("panico", ("tabela_k", "dados"), "oito", "tabela_k.dados"),
    ("registro", ("nome_maximo",), None, "'nome_maximo'"),
    ("pedidos", ("nomes_opcoes", "sim"), 5, "nomes_opcoes.sim"),
    ("personagem", ("dano_de_atributo", "pontos_por_modificador"), 0,
     "dano_de_atributo.pontos_por_modificador"),
])
def test_a_broken_panico_yaml_fails_at_load_naming_the_key(tables, file, path, value, where):
    """panico.yaml and the files it was split into (issue 8): each names its file and key."""
    with pytest.raises(TableError) as error:
        broken_panico(tables, _set(path, value), file)
    assert error.value.message.startswith(f"tables/{file}.yaml:") and where in error.value.message


@pytest.mark.parametrize("file", ["panico", "exaustao", "pedidos", "registro", "dados"])
def test_the_shipped_panico_yaml_passes(tables, file):
    broken_panico(tables, lambda data: None, file)


# ---------------------------------------------------------------- rolls keep the table's name

def test_a_label_changes_the_text_not_the_table_name(tables):
    play = Play(tables, State(party=(TIRED[1],)))
    (event,) = play("rolar", actor="player:ana", expressao="1d20", rng=FixedDice(15, 3))
    assert event.data["tabela"] == "Rolagem"
    assert event.text == ("Ana: Rolagem (DESV da exaustão) — 1d20 = 3 "
                          "(desvantagem, descartado 15)")


# ---------------------------------------------------------------- wording helpers

@pytest.mark.parametrize("count,singular,plural_form,expected", [
    (1, "rodada", None, "1 rodada"), (2, "rodada", None, "2 rodadas"),
    (0, "turno", None, "0 turnos"), (1, "ração", None, "1 ração"),
    (3, "ração", None, "3 rações"), (1.5, "hex", "hexes", "1,5 hex"),
    (0.5, "hex", "hexes", "0,5 hex"), (2, "hex", "hexes", "2 hexes"),
    (1, "ponto", None, "1 ponto")])
def test_counted(count, singular, plural_form, expected):
    assert counted(count, singular, plural_form) == expected


@pytest.mark.parametrize("minutes,expected", [
    (490, "8 horas e 10 minutos"), (60, "1 hora"), (30, "30 minutos"), (0, "0 minutos"),
    (61, "1 hora e 1 minuto")])
def test_duration_text(minutes, expected):
    assert duration_text(minutes) == expected


@pytest.mark.parametrize("name,spoken", [
    ("fuga", "teste de fuga"), ("teste", "teste de atributo"), ("panico", "pânico"),
    ("criar_municao", "criar munição"), ("avancar", "avançar"),
    ("marcha", "ordem de marcha"), ("luz", "acender"), ("distancia", "ataque à distância"),
    ("magia", "magia"), ("tabela", "tabela"), ("derrotados", "derrotados")])
def test_spoken_names_are_the_commands_nome(tables, name, spoken):
    assert spoken_name(tables, name) == spoken


@pytest.mark.parametrize("state,name,message", [
    (State(), "fuga", "'teste de fuga' só vale numa perseguição (agora: viagem). Diga 'ajuda' "
                      "para ver os comandos da viagem."),
    (State(dungeon=Dungeon(active=True)), "criar_municao",
     "'criar munição' só vale na viagem (agora: masmorra). Diga 'ajuda' para ver os comandos "
     "da masmorra."),
    (State(), "turno", "'turno' só vale na masmorra (agora: viagem). Diga 'ajuda' para ver "
                       "os comandos da viagem."),
])
def test_the_wrong_mode_refusal_is_short_and_spoken(tables, state, name, message):
    with pytest.raises(CommandRejected) as refused:
        apply(state, Command(name, {}), random.Random(0), tables)
    assert refused.value.message == message


def test_a_lasting_condition_with_an_edge_gives_desv(tables):
    bitten = new_character(id="ana", name="Ana", lasting=(Lasting("Mosquitos", 720, "desvantagem"),))
    plain = new_character(id="bia", name="Bia", lasting=(Lasting("Frio", 720),))
    assert (edge_for(bitten, tables, 0), edge_for(plain, tables, 0)) == ("desvantagem", None)
