"""The hexcrawl travel (travel.py, advance.py, forced_march.py, encounters.py, foraging.py)
reads its tables through typed pieces and says its texts from tables/narracao/: a change in
the data changes what happens and what is said."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from companion.engine.core import StartRules
from companion.rules.loader import load_rules
from companion.engine.procedures.encounters import EncounterSettings, EncounterTables
from companion.engine import Command, initial_state
from companion.engine.model import State, Travel
from companion.engine.procedures.advance import GettingLost
from companion.engine.procedures.forced_march import (
    ForcedMarch,
    forced_dc,
    march_choice_answered,
)
from companion.engine.procedures.travel import (
    AdvanceTable,
    Camp,
    EventsTable,
    TerrainNames,
    TravelModes,
    TravelRound,
)
from companion.engine.procedures.foraging import (
    AccidentTable,
    AmmoTable,
    GatheringTable,
    Yields,
)
from companion.engine.handlers import PromptAnswer
from companion.engine.scratch import Scratch
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import DEFAULT_DIR, Tables
from tests.play_helpers import FixedDice, Play
from tests.engine.travel_helpers import QUIET, ana, bia, run, start  # noqa: F401
from tests.rules_helpers import changed_rules


# ---------------------------------------------------------------- encounters

def test_the_encounter_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(EncounterSettings).visibilidade == "mestre"
    assert tables.piece(EncounterTables).regioes["pantano"].linhas[1].quantidade == "2d4"


def test_an_encounter_chance_changed_in_the_data_changes_the_check(tables: Tables,
                                                                    tmp_path: Path) -> None:
    old = '{nome: "Estepe e Planície", chance: 1, terrenos: [estepe, planicie]}'
    rules = changed_rules(tmp_path, "viagem.yaml", old, old.replace("chance: 1", "chance: 4"))
    for source, happened in ((tables, False), (rules, True)):
        play = start(Play(source), terrain="planicie", day_start_terrain="planicie")
        faces = (3, 4, 3) if happened else (3, 4)
        events = run(play, "explorar", *faces, 5)
        check = [e for e in events if e.data.get("tabela") == "Encontro aleatório"][0]
        assert check.data["chance"] == ("4:6" if happened else "1:6")
        assert check.data["resultado"] == ("Encontro" if happened else "Nenhum encontro")


def test_the_encounter_visibility_changed_in_the_data_shows_the_roll(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "casa.yaml", "visibilidade: mestre", "visibilidade: publico")
    play = start(Play(rules), day_start_terrain="pantano")
    events = run(play, "encontro", 1, 3, 2)
    assert {e.visibility for e in events} == {"public"}


def test_the_encounter_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/encontros.yaml",
                          'aparecem: "Aparecem {{ quantidade }}: {{ encontro }}."',
                          'aparecem: "Surgem {{ quantidade }} ({{ encontro }})!"')
    play = start(Play(rules), day_start_terrain="pantano")
    events = run(play, "encontro", 1, 3, 2)
    assert events[-1].code == "encontros.aparecem"
    assert events[-1].text == "Surgem 5 (Homens-lagarto (2d4))!"
    assert events[-1].data == {"quantidade": 5, "encontro": "Homens-lagarto (2d4)"}


def test_a_bad_encounter_visibility_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/casa\.yaml: 'encontros\.visibilidade' "
                                         r"deveria ser um destes: mestre, publico"):
        changed_rules(tmp_path, "casa.yaml", "visibilidade: mestre", "visibilidade: gm")


def test_a_bad_encounter_chance_names_the_file_and_key(tmp_path: Path) -> None:
    old = '{nome: "Pântano", chance: 3, terrenos: [pantano]}'
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'encontro\.grupos\[2\]\.chance'"
                                         r" deveria ser uma chance em 6, de 0 a 6"):
        changed_rules(tmp_path, "viagem.yaml", old, old.replace("chance: 3", "chance: 9"))


# ---------------------------------------------------------------- forced march (Tabela B)

def _three_advances(play: Play) -> list:
    start(play, party=(ana(),), terrain="estepe")
    run(play, "avancar", *QUIET, 6, 5)
    run(play, "avancar", *QUIET, 6, 5)
    return run(play, "avancar", *QUIET)


def test_the_forced_march_piece_is_typed(tables: Tables) -> None:
    rules = tables.piece(ForcedMarch)
    assert (rules.dc, rules.dc_por_rodada, rules.atributo) == (12, 3, "con")
    assert forced_dc(rules, 2) is None and forced_dc(rules, 4) == 15


def test_a_forced_march_dc_changed_in_the_data_is_the_test_asked(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "  dc: 12               # 1 rodada extra",
                          "  dc: 14")
    play = Play(rules)
    events = _three_advances(play)
    (prompt,) = play.state.prompts
    assert prompt.dc == 14 and "DC 14" in prompt.text
    said = [e for e in events if e.code == "viagem.marcha_forcada"]
    assert said and said[0].data == {"tabela": "Tabela B: Forçando o Avanço", "dc": 14}


def test_the_rest_rounds_changed_in_the_data_are_owed(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "viagem.yaml", "rodadas_de_descanso: 2",
                          "rodadas_de_descanso: 3")
    play = Play(rules)
    _three_advances(play)
    run(play, "responder", valor=1)
    events = run(play, "responder", opcao="descansar")
    said = [e for e in events if e.code == "viagem.vai_descansar"]
    assert said[0].text == "Ana vai descansar 3 rodadas antes de outra atividade."


def test_the_forced_march_texts_come_from_narracao(tmp_path: Path) -> None:
    rules = changed_rules(tmp_path, "narracao/viagem.yaml",
                          'aguenta_marcha: "{{ nome }} aguenta',
                          'aguenta_marcha: "Firme! {{ nome }} aguenta')
    play = Play(rules)
    _three_advances(play)
    events = run(play, "responder", 6, 5, valor=15)
    said = [e for e in events if e.code == "viagem.aguenta_marcha"]
    assert said[0].text == "Firme! Ana aguenta a marcha forçada (16 contra DC 12)."
    assert said[0].data == {"personagem": "ana"}


def test_an_unknown_march_choice_is_refused_from_narracao(tables: Tables) -> None:
    play = Play(tables)
    _three_advances(play)
    run(play, "responder", valor=1)
    (prompt,) = play.state.prompts
    scratch = Scratch(rng=FixedDice(), tables=tables, command=Command("responder"))
    with pytest.raises(CommandRejected) as refusal:
        march_choice_answered(play.state, prompt, PromptAnswer(option="voar"), scratch)
    assert refusal.value.code == "viagem.escolha_desconhecida"
    assert tables.narration.render(refusal.value.code, refusal.value.params) == \
        "escolha desconhecida: 'voar'; use descansar ou exaustão"


def test_a_bad_forced_march_die_names_the_file_and_key(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"tables/viagem\.yaml: 'tabela_b\.dados' deveria ser "
                                         r"uma expressão de dados"):
        changed_rules(tmp_path, "viagem.yaml", "  dados: 1d20          # o teste de CON",
                      "  dados: vinte  # o teste de CON")


# ---------------------------------------------------------------- advance (Tabelas A and C)

def test_the_advance_pieces_are_typed(tables: Tables) -> None:
    assert tables.piece(AdvanceTable).hexes["navegando"] == 2
    assert tables.piece(TravelModes).name("montado") == "Montado / Dirigindo"
    assert [g.chance for g in tables.piece(GettingLost).grupos] == [1, 2, 3]


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
    assert tables.piece(EventsTable).column("montanha").linhas[2] == "Evento"
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


# ---------------------------------------------------------------- a round a chase or dungeon fills (issue 26)

def _round_start_rolls(events: list) -> list[str]:
    return [e.data["tabela"] for e in events if e.kind == "rolagem"
            and e.data["tabela"] in ("Clima", "Encontro aleatório")]


def test_a_chase_at_the_start_of_a_round_keeps_its_weather_encounter_and_activities(
        tables) -> None:
    """RULES.md: every travel round gets its weather roll and encounter check once, at its
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
