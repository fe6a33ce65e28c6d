"""`tabela X` reads every seed table of tables/dados.yaml `tabelas` as the typed piece that owns
it: a change in the data changes what is shown, and an entry no piece types is refused at load
with the file and the key."""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from companion.engine import Command, apply, initial_state
from companion.engine.model import Event, State, Travel
from companion.engine.procedures.conditions import ConditionRules
from companion.engine.procedures.dice_tables import DiceRules, typed_tables
from companion.engine.procedures.dungeon import DungeonRules
from companion.engine.procedures.encounters import EncounterTables
from companion.engine.procedures.travel import AdvanceTable
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from companion.tables.piece_lookup import typed_at
from tests.play_helpers import FixedDice, Play, ana_and_tired_bia
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


# ---------------------------------------------------------------- rolar

def test_rolar_is_a_public_rolagem(play):
    (event,) = play("rolar", expressao="2d6+1", rng=FixedDice(3, 5))
    assert event.kind == "rolagem" and event.visibility == "public"
    assert (event.data["tabela"], event.data["dados"], event.data["total"]) == ("Rolagem", "2d6+1", 9)


@pytest.mark.parametrize("edge,kept,dropped", [("vantagem", 17, 4), ("desvantagem", 4, 17)])
def test_rolar_with_advantage_or_disadvantage(play, edge, kept, dropped):
    (event,) = play("rolar", expressao="1d20", vantagem=edge, rng=FixedDice(4, 17))
    assert event.data["total"] == kept and event.data["descartado"] == dropped
    assert event.data["vantagem"] == edge


def test_unknown_edge_is_rejected(play):
    with pytest.raises(CommandRejected, match="vantagem desconhecida"):
        play("rolar", expressao="1d20", vantagem="sorte")


@pytest.mark.parametrize("expression", ["1000d1000000", "1000d6", "1d1", "abc", "2d6+", ""])
def test_absurd_or_bad_dice_are_rejected_and_change_nothing(tables, expression):
    play = ana_and_tired_bia(tables)
    before = play.state
    with pytest.raises(CommandRejected):
        play("rolar", expressao=expression)
    assert play.state == before and play.events == []


def test_player_roll_names_the_character(tables):
    play = ana_and_tired_bia(tables)
    (event,) = play("rolar", actor="player:ana", expressao="1d6", rng=FixedDice(6))
    assert event.text.startswith("Ana: Rolagem") and event.visibility == "public"
    assert event.data["personagem"] == "ana"


def test_exhausted_player_rolls_with_disadvantage(tables):
    play = ana_and_tired_bia(tables)
    (event,) = play("rolar", actor="player:bia", expressao="1d20", rng=FixedDice(15, 3))
    assert event.data["total"] == 3 and "DESV da exaustão" in event.text


def test_exhaustion_cancels_said_advantage(tables):
    play = ana_and_tired_bia(tables)
    (event,) = play("rolar", actor="player:bia", expressao="1d20", vantagem="vantagem",
                    rng=FixedDice(15))
    assert event.data["total"] == 15 and "vantagem" not in event.data
    assert "se anulam" in event.text


# ---------------------------------------------------------------- segredo

def test_segredo_is_gm_only_and_kept(tables):
    play = ana_and_tired_bia(tables)
    (event,) = play("segredo", expressao="1d20+2", motivo="escutar a porta", rng=FixedDice(9))
    assert event.kind == "rolagem" and event.visibility == "gm"
    assert event.data["total"] == 11 and "escutar a porta" in event.data["tabela"]
    assert play.state.secrets == ("escutar a porta: 1d20+2 = 11",)


def test_segredo_defaults_to_1d20(play):
    (event,) = play("segredo", rng=FixedDice(20))
    assert event.data["dados"] == "1d20" and event.visibility == "gm"
    assert len(play.state.secrets) == 1


def test_players_cannot_roll_secrets(tables):
    play = ana_and_tired_bia(tables)
    with pytest.raises(CommandRejected, match="só o Mestre"):
        play("segredo", actor="player:ana")
    assert play.state.secrets == ()


# ---------------------------------------------------------------- tabela

def test_tabela_k_rolls_1d8_with_the_full_text(play, tables):
    (event,) = play("tabela", tabela="K", rng=FixedDice(6))
    assert event.kind == "rolagem" and event.data["tabela"] == "Tabela K: Aflição"
    assert event.data["dados"] == "1d8"
    assert event.data["resultado"] == tables.get("panico", "tabela_k", "linhas", "6", "texto")
    assert play.state.party == ()  # consulting a table applies nothing


def test_tabela_d_rolls_on_the_current_terrain_column(tables):
    play = Play(tables, State(travel=Travel(terrain="floresta")))
    (event,) = play("tabela", tabela="d", rng=FixedDice(2))
    assert event.data["tabela"] == "Tabela D: Eventos"
    assert event.data["resultado"] == "Evento" and event.data["coluna"] == "Florestas e Pântanos"


@pytest.mark.parametrize("key,name", [("f", "Tabela F: Acidentes"), ("h", "Tabela H: Percalços"),
                                      ("masmorra b", "Tabela B: Percalços da Dungeon")])
def test_mishap_tables_roll_1d10(play, key, name):
    (event,) = play("tabela", tabela=key, rng=FixedDice(1))
    assert (event.data["tabela"], event.data["dados"]) == (name, "1d10")
    assert event.data["resultado"] == "Nada"


def test_tabela_encontros_rolls_the_start_of_day_region_for_the_gm(tables):
    play = Play(tables, State(travel=Travel(terrain="floresta", day_start_terrain="colinas")))
    (event,) = play("tabela", tabela="encontros", rng=FixedDice(1))
    assert event.visibility == "gm"
    assert event.data["resultado"] == tables.get("encontros", "regioes", "colinas", "linhas", 1)


@pytest.mark.parametrize("key,expected", [
    ("a", "Andando: 1/2 hex por rodada ◀ agora"),
    ("b", "1 rodada extra: DC 12"),
    ("c", "Planície, Colinas, Floresta: 2:6 ◀ agora"),
    ("e", "Planície e Colinas: Forragear 2:6, Caçar 3:6, Pescar 1:6 ◀ agora"),
    ("g", "Planície / Colinas: -6 ◀ agora"),
    ("i", "3: 1d4 de dano de CON / dia"),
    ("J", "14+: Terror. Foge de todos os seres (até aliados) por 1d4 rodadas"),
    ("masmorra_a", "Mortal: 1:6 todo turno de exploração"),
    ("masmorra_c", "Arriscado: 3:6 a cada 2 horas."),
])
def test_tables_with_nothing_to_roll_are_explained(play, key, expected):
    (event,) = play("tabela", tabela=key)
    assert event.kind == "relato" and event.visibility == "public"
    assert expected in event.data["linhas"]
    assert play.state.tally.dice == {}


def test_unknown_table_is_rejected(play):
    with pytest.raises(CommandRejected, match="tabela desconhecida: 'Z'"):
        play("tabela", tabela="Z")


def test_tabela_d_without_a_column_for_the_terrain_is_rejected_naming_the_data(tables):
    files = copy.deepcopy(dict(tables.files))
    for column in files["viagem"]["tabela_d"]["colunas"]:
        column["terrenos"] = [t for t in column["terrenos"] if t != "floresta"]
    play = Play(Tables(files=files, directory=tables.directory),
                State(travel=Travel(terrain="floresta")))
    before = play.state
    with pytest.raises(CommandRejected, match="tabela_d.colunas.*'floresta'"):
        play("tabela", tabela="d", rng=FixedDice(2))
    assert play.state == before and play.events == []


def test_a_table_shown_only_to_the_gm_follows_its_entry(tables):
    files = copy.deepcopy(dict(tables.files))
    files["dados"]["tabelas"]["k"]["visibilidade"] = "gm"
    play = Play(Tables(files=files, directory=tables.directory))
    (event,) = play("tabela", tabela="k", rng=FixedDice(1))
    assert event.visibility == "gm" and event.data["tabela"] == "Tabela K: Aflição"
