"""test_hexcrawl.py, continued: the data tests."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from companion.engine import State, initial_state
from companion.engine.core import StartRules
from companion.engine.model import Travel
from companion.engine.procedures.foraging import (
    AccidentTable,
    AmmoTable,
    GatheringTable,
    Yields,
)
from companion.engine.procedures.travel import (
    Camp,
    EventsTable,
    TerrainNames,
    TravelRound,
)
from companion.rules.loader import load_rules
from companion.session import Session
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import DEFAULT_DIR, Tables
from tests.engine.travel_helpers import QUIET, ana, run, start
from tests.play_helpers import Play
from tests.rules_helpers import changed_rules, new_character
from tests.engine.hexcrawl_helpers import (  # noqa: F401
    _round_start_rolls,
    _travel_round_rolls,
)


def test_hexes_changed_in_the_data_are_the_advance(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "hexes: {andando: 0.5,", "hexes: {andando: 1.5,")
    play = start(Play(rules), terrain="estepe")
    events = run(play, "avancar", *QUIET, 6, 5)
    assert play.state.travel.hexes == 1.5
    said = [e for e in events if e.code == "viagem.avanca"][0]
    assert said.text.startswith("O grupo avança 1,5 hex (Andando).")
    assert said.data == {"hexes": 1.5, "tabela": "Tabela A: Avançar"}


def test_a_lost_chance_changed_in_the_data_changes_the_check(tables: Tables,
                                                              tmp_path: Path) -> None:
    old = "{nome: Estepes, chance: 1, terrenos: [estepe]}"
    rules = changed_rules(tmp_path, "viagem.yaml", old, old.replace("chance: 1", "chance: 5"))
    for source, lost in ((tables, False), (rules, True)):
        play = start(Play(source), terrain="estepe")
        events = run(play, "avancar", *QUIET, 4, 5)
        assert play.state.travel.lost is lost
        assert any(e.code == "viagem.perdido" for e in events) is lost


def test_the_advance_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          "modo: \"O grupo viaja {{ nome }}:", "modo: \"Agora {{ nome }}:")
    play = start(Play(rules))
    (said,) = run(play, "modo", modo="montado")
    assert said.code == "viagem.modo" and said.data == {"modo": "montado"}
    assert said.text == "Agora Montado / Dirigindo: 1 hex por rodada."


def test_found_the_way_refused_from_narracao(tables: Tables) -> None:
    play = start(Play(tables))
    with pytest.raises(CommandRejected) as refusal:
        run(play, "caminho")
    assert refusal.value.code == "viagem.nao_esta_perdido"
    assert refusal.value.message.startswith("o grupo não está perdido: ")


def test_hexes_missing_a_mode_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'tabela_a\.hexes' deveria ser "
                                         r"um número de hexes para cada modo \(falta navegando\)"):
        changed_rules(tmp_path, "viagem.yaml", "montado: 1, navegando: 2}", "montado: 1}")


# ---------------------------------------------------------------- the travel round (travel.py)

def test_the_travel_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(TravelRound).minutos == 240
    assert tables.piece(TerrainNames).names()["pantano"] == "Pântano"
    assert tables.piece(EventsTable).column("montanha", tables.narration).linhas[2] == "Evento"
    assert tables.piece(Camp).chance == 5


def test_a_camp_chance_changed_in_the_data_changes_the_camp(tables: Tables,
                                                             tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  chance: 5            # 5:6",
                          "  chance: 2            # 5:6")
    for source, safe in ((tables, True), (rules, False)):
        play = start(Play(source))
        events = run(play, "acampar", *QUIET, 4)
        said = [e for e in events if e.code == "viagem.acampamento"][0]
        assert said.data == {"seguro": safe} and play.state.travel.camp_safe is safe


def test_a_round_length_changed_in_the_data_is_the_clock(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  minutos: 240", "  minutos: 120")
    play = start(Play(rules))
    events = run(play, "explorar", *QUIET, 5)
    assert play.state.minutes == 120
    said = [e for e in events if e.code == "viagem.rodada"][0]
    assert said.data == {"dia": 1, "rodada": 1} and said.text == "Dia 1, rodada 1 de 6."


def test_an_events_row_changed_in_the_data_is_the_row_rolled(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "4: Peregrinos,\n", "4: Mercadores,\n")
    play = start(Play(rules), terrain="planicie")
    events = run(play, "explorar", *QUIET, 4)
    assert [e.data["resultado"] for e in events if e.data.get("tabela") == "Tabela D: Eventos"] \
        == ["Mercadores"]


def test_the_travel_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          'explora: "O grupo explora o hex atual, procurando PdIs e rastros."',
                          'explora: "Vasculham o hex."')
    play = start(Play(rules))
    events = run(play, "explorar", *QUIET, 5)
    said = [e for e in events if e.code == "viagem.explora"]
    assert [e.text for e in said] == ["Vasculham o hex."] and said[0].data == {}


def test_an_unknown_terrain_is_refused_from_narracao(tables: Tables) -> None:
    play = start(Play(tables))
    with pytest.raises(CommandRejected) as refusal:
        run(play, "terreno", terreno="lua")
    assert refusal.value.code == "viagem.terreno_desconhecido"
    assert refusal.value.message == ("terreno desconhecido: 'lua'; use planície, estepe, "
                                     "colinas, floresta, pântano ou montanha")


def test_a_bad_camp_chance_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'acampamento\.chance' deveria "
                                         r"ser uma chance em 6, de 0 a 6"):
        changed_rules(tmp_path, "viagem.yaml", "  chance: 5            # 5:6", "  chance: 7  #")


# ---------------------------------------------------------------- foraging (Tabelas E, F, G)

def test_the_foraging_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(Yields).of("cacar").comida == 2
    assert tables.piece(GatheringTable).linhas[2].chance("pescar") == 5
    assert tables.piece(AccidentTable).linhas[8].dano == 2
    assert tables.piece(AmmoTable).linhas[4].modificador == -10


def test_a_yield_changed_in_the_data_is_the_harvest(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "casa.yaml", "cacar: {comida: 2, agua: 0}",
                          "cacar: {comida: 4, agua: 1}")
    play = start(Play(rules), party=(ana(),), terrain="floresta")
    events = run(play, "cacar", 1, personagem="Ana")
    assert (play.state.party[0].food, play.state.party[0].water) == (4, 1)
    said = [e for e in events if e.code == "viagem.colheita"][0]
    assert said.data == {"comida": 4, "agua": 1} and said.text == "Ana: +4 comida e +1 água."


def test_a_gathering_chance_changed_in_the_data_changes_the_check(tmp_path: Path) -> None:
    old = "{nome: Montanha, terrenos: [montanha], forragear: 1, cacar: 2, pescar: 2}"
    rules = changed_rules(tmp_path, "viagem.yaml", old, old.replace("cacar: 2", "cacar: 4"))
    play = start(Play(rules), party=(ana(),), terrain="montanha")
    events = run(play, "cacar", 4, personagem="Ana")
    check = [e for e in events if e.data.get("tabela") == "Tabela E: Forragear/Caçar/Pescar"][0]
    assert check.data["chance"] == "4:6" and check.data["resultado"] == "Sucesso"


def test_an_accident_damage_changed_in_the_data_is_the_harm(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "      dano: 2\n", "      dano: 4\n")
    play = start(Play(rules), party=(ana(hp=5),), terrain="montanha")
    events = run(play, "cacar", 3, 8, personagem="ana")
    assert play.state.party[0].hp == 1
    said = [e for e in events if e.code == "viagem.dano"][0]
    assert said.text == "Ana sofre 4 de dano (PV 1)." and said.data == {"personagem": "ana"}


def test_an_ammo_modifier_changed_in_the_data_is_the_roll(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "terrenos: [montanha], modificador: -10",
                          "terrenos: [montanha], modificador: -1")
    play = start(Play(rules), party=(ana(),), terrain="montanha")
    events = run(play, "criar_municao", 15, personagem="Ana")
    assert play.state.party[0].ammo == 16  # 15 + DES 2 - 1
    roll = [e for e in events if e.data.get("tabela") == "Tabela G: Criar Munição"][0]
    assert roll.data["resultado"] == "Ana: 16 munições"


def test_the_foraging_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          "municoes: \"{{ nome }}: {{ municoes | contagem('munição', 'munições') }}\"",
                          'municoes: "{{ nome }} faz {{ municoes }} flechas"')
    play = start(Play(rules), party=(ana(),), terrain="floresta")
    events = run(play, "criar_municao", 10, personagem="Ana")
    roll = [e for e in events if e.data.get("tabela") == "Tabela G: Criar Munição"][0]
    assert roll.data["resultado"] == "Ana faz 12 flechas"


def test_a_bad_yield_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/casa\.yaml: 'colheita\.pescar\.comida' "
                                         r"deveria ser número inteiro"):
        changed_rules(tmp_path, "casa.yaml", "pescar: {comida: 1,", "pescar: {comida: muita,")


# ---------------------------------------------------------------- the session's start (inicio)

def test_a_starting_terrain_changed_in_the_data_is_the_new_session(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "inicio.yaml", "  valor: planicie", "  valor: colinas")
    assert rules.piece(StartRules).terreno.valor == "colinas"
    state = initial_state(rules)
    assert state.travel.terrain == state.travel.day_start_terrain == "colinas"


def test_a_bad_starting_mode_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/inicio\.yaml: 'modo\.valor' deveria ser um "
                                         r"destes: andando, montado, navegando"):
        changed_rules(tmp_path, "inicio.yaml", "  valor: andando", "  valor: voando")


def test_the_exhaustion_of_a_day_without_rest_comes_from_the_data(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  dia_sem_descanso: 1 ",
                          "  dia_sem_descanso: 2 ")
    play = start(Play(rules), party=(ana(),))
    events = []
    for _ in range(6):
        events += run(play, "explorar", *QUIET, 5)
    assert play.state.party[0].exhaustion == 2
    said = [e for e in events if e.code == "viagem.dia_sem_descanso"]
    assert said[0].kind == "aviso" and "recebe 2 pontos de exaustão" in said[0].text


def test_an_encounter_table_missing_for_a_region_is_refused_at_load(tmp_path: Path) -> None:
    """Every terrain starts a day somewhere: encontros.yaml needs a table for each."""
    folder = tmp_path / "tables"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "encontros.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["regioes"]["pantano"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(TableError, match=r"tables/encontros\.yaml: 'regioes\.pantano' deveria "
                                         r"ser a tabela de encontros dessa região"):
        load_rules(folder)


def test_a_chase_at_the_start_of_a_round_keeps_its_weather_encounter_and_activities(
        tables) -> None:
    """docs/regras.md: every travel round gets its weather roll and encounter check once, at its
    start, even when a chase fills part of it; who did not act keeps their activity."""
    from tests.play_helpers import Play
    from tests.rules_helpers import new_character

    party = (new_character(id="ana", name="Ana", food=3, water=3),
             new_character(id="bia", name="Bia", food=3, water=3))
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party))
    events = play("fugir") + play("fuga", resultado="sucesso")  # the chase starts
    assert _round_start_rolls(events) == ["Clima", "Encontro aleatório"]
    events = play("fuga", resultado="sucesso") + play("fuga", resultado="sucesso")
    assert play.state.chase is None and play.state.minutes == 260
    events += play("cacar", personagem="Ana")
    assert _round_start_rolls(events) == []  # the round is the one the chase began
    assert play.state.minutes == 260 and play.state.travel.round_open
    events += play("forragear", personagem="Bia")  # the last one to act closes it
    assert _round_start_rolls(events) == []
    assert play.state.minutes == 480  # the round ends where it ends (8h), not 4 h later
    play("explorar")
    assert _round_start_rolls(play.events).count("Clima") == 2


def test_a_dungeon_entered_at_the_start_of_a_round_had_its_weather_and_encounter(
        tables) -> None:
    from tests.play_helpers import Play
    from tests.rules_helpers import new_character

    party = (new_character(id="ana", name="Ana", food=3, water=3),)
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party))
    events = play("masmorra")
    assert _round_start_rolls(events) == ["Clima", "Encontro aleatório"]
    play("turno")
    play("turno")
    events = play("viagem") + play("explorar")
    assert _round_start_rolls(events) == []
    assert play.state.minutes == 480


def test_a_round_that_begins_inside_a_dungeon_gets_its_weather_and_encounter_once(
        tables) -> None:
    """docs/regras.md: every travel round of the day gets its weather and encounter check exactly
    once, at its start, even when a dungeon fills it: the round of 8h begins while the party
    is still below ground (a turn crosses 8h00), and it is the round they travel in after."""
    party = (new_character(id="ana", name="Ana", food=3, water=3),
             new_character(id="bia", name="Bia", food=3, water=3))
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party))
    assert _travel_round_rolls(play("masmorra")) == ["Clima", "Encontro aleatório"]
    play.state = replace(play.state, minutes=7 * 60 + 50)  # 19 turns later
    events = play("turno")
    assert play.state.minutes == 8 * 60
    assert _travel_round_rolls(events) == ["Clima", "Encontro aleatório"]
    assert "Dia 1, rodada 3 de 6." in [e.text.split(" Ela começa")[0] for e in events]
    assert play.state.travel.round_open
    events = play("turno") + play("turno") + play("viagem") + play("cacar", personagem="Ana")
    assert _travel_round_rolls(events) == []  # the round of 8h had them, once
    assert play.state.minutes == 8 * 60 + 20 and play.state.travel.round_open
    events = play("explorar")  # Bia's activity closes the round where it ends
    assert _travel_round_rolls(events) == [] and play.state.minutes == 12 * 60
    assert _travel_round_rolls(play("explorar")) == ["Clima", "Encontro aleatório"]


def test_the_rounds_a_dungeon_sleep_crosses_each_get_their_weather_and_encounter(
        tables) -> None:
    """Sleeping 8 hours in the dungeon from 6h: the rounds of 8h and 12h begin while the
    party sleeps, each with its weather and encounter check, once."""
    party = (new_character(id="ana", name="Ana", food=3, water=3),)
    play = Play(tables, State(minutes=240, travel=Travel(weather_row=3), party=party),
                seed=2)  # dice under which no monster reaches the room: all 8 hours pass
    play("masmorra")
    play.state = replace(play.state, minutes=6 * 60)
    events = play("dormir")
    assert play.state.minutes == 14 * 60
    assert _travel_round_rolls(events) == ["Clima", "Encontro aleatório"] * 2
    headers = [e.text for e in events if e.code == "viagem.rodada"]
    assert [h.split(".")[0] for h in headers] == ["Dia 1, rodada 3 de 6", "Dia 1, rodada 4 de 6"]


def test_a_round_that_begins_during_a_chase_gets_its_weather_and_encounter_once(
        tables) -> None:
    """A chase that starts at 3h50 (no round open: a dungeon was left at 3h50) runs past 4h00:
    the round of 4h begins during it and has its rolls then; the travel after it is in that
    round, with no second weather or encounter."""
    party = (new_character(id="ana", name="Ana", food=3, water=3),)
    play = Play(tables, State(minutes=230, travel=Travel(weather_row=3), party=party))
    events = play("fugir") + play("fuga", resultado="sucesso")
    assert _travel_round_rolls(events) == []  # 3h50: the round of 0h is not this chase's
    events = play("fuga", resultado="sucesso")
    assert play.state.minutes == 240
    assert _travel_round_rolls(events) == ["Clima", "Encontro aleatório"]
    events = play("fuga", resultado="sucesso")
    assert play.state.chase is None
    events += play("explorar")
    assert _travel_round_rolls(events) == [] and play.state.minutes == 480


def test_one_ammunition_is_singular(tables: Tables) -> None:
    said = tables.narration.render("viagem.municoes", {"nome": "Ana", "municoes": 1})
    assert said == "Ana: 1 munição"
    assert tables.narration.render("viagem.municoes", {"nome": "Ana", "municoes": 3}) \
        == "Ana: 3 munições"


def test_a_region_is_said_with_its_own_preposition(tmp_path: Path, tables: Tables) -> None:
    """'O grupo está na Floresta Sombria', 'no Pântano': the preposition is stored with the
    region (encontros.yaml `preposicao`), never 'em Floresta Sombria'."""
    session = Session.open(tmp_path / "r.db", 3, tables)
    region = {"regiao": "Floresta Sombria", "terreno": "floresta", "dados": "1d2",
              "preposicao": "na", "linhas": {1: "Ent furioso", 2: "Corvos"}}
    assert session.change_rules({"encontros": {"regioes": {"floresta_sombria": region}}},
                                "gm").ok
    said = [e["text"] for e in session.run("região Floresta Sombria").events]
    assert "O grupo está na Floresta Sombria (Floresta)." in said, said
    said = [e["text"] for e in session.run("região Pântano").events]
    assert any(t.startswith("O grupo está no Pântano") for t in said), said
    session.close()
