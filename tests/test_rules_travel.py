"""The hexcrawl travel (travel.py, advance.py, forced_march.py, encounters.py, foraging.py)
reads its tables through typed pieces and says its texts from tables/narracao/: a change in
the data changes what happens and what is said."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.procedures.encounters import EncounterSettings, EncounterTables
from companion.errors import TableError
from companion.tables import Tables
from tests.conftest import FixedDice, Play
from tests.test_hexcrawl import QUIET, ana, bia, run, start  # noqa: F401
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
                                         r" deveria ser uma chance de 0 a 6"):
        changed_rules(tmp_path, "viagem.yaml", old, old.replace("chance: 3", "chance: 9"))
