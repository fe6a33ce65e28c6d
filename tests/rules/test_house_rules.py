"""The GM's own rules (issue 19): regions with their encounter tables and house values kept per
campaign as differences from tables/, each change a logged, undoable command that never changes
the past, and safe across updates of the companion."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.rules import overlay
from companion.history import replay
from companion.commands.text_readings import parse
from companion.engine.procedures.encounters import EncounterTables
from companion.tables.errors import TableError
from companion.report import build
from companion.report.source import open_campaign
from companion.session import Session
from companion.store.log import Log
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules
from tests.rules.house_rules_helpers import (  # noqa: F401
    SOMBRIA,
    REGION,
    TORCH_2,
    ok,
    rolled,
    VIEWERS,
    _told,
)


# ---------------------------------------------------------------------- merging and checking

def test_overrides_keep_only_the_differences_nested_as_in_the_files(tables: Tables) -> None:
    change = overlay.patched(tables, {}, {**TORCH_2, **REGION})
    assert change.overrides == {"casa": {"luz": {"tocha": {"turnos": 2}}}, **REGION}
    # a default region edited: only its rows, whole
    rows = {1: "Urso pardo", 2: "Ent furioso"}
    edited = overlay.patched(tables, change.overrides, {
        "encontros": {"regioes": {"floresta": {"dados": "1d2", "linhas": rows}}}})
    assert edited.overrides["encontros"]["regioes"]["floresta"] == {"dados": "1d2",
                                                                    "linhas": rows}
    forest = edited.tables.piece(EncounterTables).regioes["floresta"]
    assert list(forest.linhas) == [1, 2] and forest.nome == "Encontros: Floresta"
    # null: back to the shipped value; a region the GM added, removed
    back = overlay.patched(tables, edited.overrides, {
        "casa": {"luz": {"tocha": {"turnos": None}}},
        "encontros": {"regioes": {"floresta": None, "floresta-sombria": None}}})
    assert back.overrides == {}
    assert back.tables.files["casa"] == tables.files["casa"]
    assert [(c.chave, c.depois) for c in back.changes][:1] == [("luz.tocha.turnos", 6)]


@pytest.mark.parametrize("patch, message", [
    ({"encontros": {"regioes": {"floresta-sombria": {**SOMBRIA, "linhas": {
        **SOMBRIA["linhas"], 2: {"texto": "Lobos", "quantidade": "dois d quatro"}}}}}},
     "tables/encontros.yaml: 'regioes.floresta-sombria.linhas.2.quantidade' deveria ser uma "
     "expressão de dados"),
    ({"encontros": {"regioes": {"floresta-sombria": {**SOMBRIA, "linhas": {1: "Ent"}}}}},
     "'regioes.floresta-sombria.linhas' deveria ser uma linha para cada resultado de 1d4 "
     "(falta a do 2)"),
    ({"encontros": {"regioes": {"bosque": {**SOMBRIA, "regiao": "Floresta"}}}},
     "'regioes.bosque.regiao' deveria ser um nome que não seja o de um terreno"),
    ({"encontros": {"regioes": {"bosque": {**SOMBRIA, "terreno": "lava"}}}},
     "'regioes.bosque.terreno' deveria ser um destes: planicie"),
    ({"casa": {"luz": {"tocha": {"turnos": "seis"}}}},
     "tables/casa.yaml: 'luz.tocha.turnos' deveria ser número inteiro"),
    ({"casa": {"tocha": 3}}, "tables/casa.yaml: a chave 'tocha' não existe nas tabelas"),
    ({"comandos": {"repeticoes_maximas": 9}}, "'comandos' não é um arquivo de regras"),
])
def test_a_bad_change_is_refused_naming_the_file_the_row_and_the_field(
        tables: Tables, patch: dict[str, Any], message: str) -> None:
    with pytest.raises(TableError) as refused:
        overlay.patched(tables, {}, patch)
    assert message in refused.value.message


# ---------------------------------------------------------------------- regions

def test_the_encounter_check_uses_the_table_of_the_region_where_the_day_started(
        tables: Tables) -> None:
    rules = overlay.patched(tables, {}, REGION).tables
    play = Play(rules)
    said = play("regiao", regiao="Floresta Sombria")
    assert said[0].data == {"regiao": "floresta-sombria", "terreno": "floresta"}
    assert play.state.travel.day_start_region == "floresta-sombria"
    assert play.state.travel.day_start_terrain == "floresta"
    # initial weather 3, weather 3 (no change), encounter 1 on 2:6 (forest), row 2 of the
    # region, 2d4 = 3+4, then Tabela C 4 (not lost) and Tabela D 6 (nothing)
    events = play("avancar", rng=FixedDice(3, 3, 1, 2, 3, 4, 4, 6))
    [table] = rolled(events, "Encontros: Floresta Sombria")
    assert (table["dados"], table["total"], table["resultado"]) == ("1d4", 2,
                                                                    "Lobos negros (2d4)")
    assert rolled(events, "Quantos aparecem")[0]["total"] == 7
    # moving on mid-day: the day's region stays the one the day started in
    play("terreno", terreno="pantano")
    assert play.state.travel.region is None and play.state.travel.terrain == "pantano"
    events = play("encontro", rng=FixedDice(4))
    assert rolled(events, "Encontros: Floresta Sombria")[0]["resultado"] == "Corvos que falam"
    assert not rolled(events, "Encontros: Pântano")


def test_terreno_goes_to_the_terrains_default_region(tables: Tables) -> None:
    rules = overlay.patched(tables, {}, REGION).tables
    play = Play(rules)
    play("regiao", regiao="floresta sombria")
    play("terreno", terreno="floresta")
    assert (play.state.travel.region, play.state.travel.day_start_region) == (None, None)
    events = play("encontro", rng=FixedDice(4))
    assert rolled(events, "Encontros: Floresta")[0]["resultado"] == "Lenhadores"


def test_an_unknown_region_is_refused_with_the_names_accepted(tables: Tables) -> None:
    rules = overlay.patched(tables, {}, REGION).tables
    with pytest.raises(Exception) as refused:
        Play(rules)("regiao", regiao="Terra Média")
    assert "região desconhecida: 'Terra Média'" in str(refused.value)
    assert "Floresta Sombria" in str(refused.value)


def test_defeated_creatures_are_counted_under_the_regions_name(tables: Tables) -> None:
    session = Session.open(None, 3, tables)
    ok(session.change_rules(REGION, "gm"))
    ok(session.run("região Floresta Sombria"))
    ok(session.run("derrotados 3 goblins"))
    ok(session.run("terreno pântano"))
    ok(session.run("derrotados 2 lobos na Floresta Sombria"))
    assert session.state.tally.defeated == {"Floresta Sombria": {"goblins": 3, "lobos": 2}}


def test_region_names_join_the_grammar_of_the_campaign(tables: Tables) -> None:
    rules = overlay.patched(tables, {}, REGION).tables
    assert parse("região Floresta Sombria", rules).command.args == {"regiao": "floresta-sombria"}
    assert parse("chegamos na floresta sombria", rules).command.name == "regiao"
    derrota = parse("derrotados 2 lobos na Floresta Sombria", rules).command
    assert derrota.args["regiao"] == "floresta-sombria"
    assert parse("chegamos na floresta sombria", tables).command is None  # not this campaign


def test_the_region_in_use_cannot_be_deleted_or_moved_to_another_terrain(
        tables: Tables) -> None:
    session = Session.open(None, 3, tables)
    ok(session.change_rules(REGION, "gm"))
    ok(session.run("região Floresta Sombria"))
    for patch in ({"encontros": {"regioes": {"floresta-sombria": None}}},
                  {"encontros": {"regioes": {"floresta-sombria": {"terreno": "pantano"}}}}):
        refused = session.change_rules(patch, "gm")
        assert not refused.ok and "está em uso" in (refused.error or "")
    assert session.overrides == REGION
    ok(session.change_rules({"encontros": {"regioes": {"floresta-sombria": {
        "regiao": "Floresta Escura"}}}}, "gm"))  # a new name: the party is still there
    assert session.state.travel.region == "floresta-sombria"


# ---------------------------------------------------------------------- a change is a command

def test_a_rules_change_is_a_gm_only_logged_command_from_the_next_command_on(
        tables: Tables) -> None:
    session = Session.open(None, 3, tables)
    session.join_player("Ana")
    refused = session.change_rules(TORCH_2, "player:ana")
    assert not refused.ok and "só o Mestre" in (refused.error or "")
    ok(session.run("masmorra"))
    ok(session.run("acender tocha"))
    events = ok(session.change_rules(TORCH_2, "gm"))
    assert all(e["visibility"] == "gm" and e["command"] == replay.RULES for e in events)
    change = next(e for e in events if e["data"].get("chave") == "luz.tocha.turnos")
    assert change["data"] == {"arquivo": "casa.yaml", "chave": "luz.tocha.turnos",
                              "antes": 6, "depois": 2, "origem": "mestre"}
    assert "casa.yaml: luz.tocha.turnos 6 → 2" in change["text"]
    assert session.state.dungeon.lights[0].turns_left == 6  # the lit torch stays as it was
    ok(session.run("acender tocha"))
    assert session.state.dungeon.lights[-1].turns_left == 2


def test_a_dry_run_says_what_would_change_and_changes_nothing(tables: Tables) -> None:
    session = Session.open(None, 3, tables)
    last = session.last_seq()
    result = session.change_rules(TORCH_2, "gm", dry_run=True)
    assert result.ok and result.events == [{"arquivo": "casa.yaml", "chave": "luz.tocha.turnos",
                                           "antes": 6, "depois": 2, "origem": "mestre"}]
    assert session.overrides == {} and session.last_seq() == last
    bad = session.change_rules({"casa": {"luz": {"tocha": {"turnos": 0}}}}, "gm", dry_run=True)
    assert not bad.ok and "'luz.tocha.turnos' deveria ser" in (bad.error or "")


def test_a_rules_change_undone_and_the_past_unchanged(tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    session.join_player("Ana")
    ok(session.run("personagem Ana"))
    ok(session.run("terreno floresta"))
    ok(session.run("avançar"))
    reports = {v: _told(db, session.tables, v) for v in VIEWERS}
    stored_before = Log.read(db).commands()
    ok(session.change_rules({**REGION, **TORCH_2}, "gm"))
    ok(session.run("região Floresta Sombria"))
    ok(session.run("encontro"))
    # the report of what came before reads the same: the change applies from then on
    for viewer in VIEWERS:
        later = _told(db, session.tables, viewer)
        assert later[:len(reports[viewer])] == reports[viewer]
        assert len(later) > len(reports[viewer])
    assert Log.read(db).commands()[:len(stored_before)] == stored_before
    page = build.html(open_campaign(db, session.tables), session.tables, None, "player:ana",
                      "Ana")
    assert "Ent furioso" not in page and "luz.tocha.turnos" not in page  # GM-only
    ok(session.run("desfazer"))  # the encounter
    ok(session.run("desfazer"))  # the region
    undone = ok(session.run("desfazer"))  # the rules change
    assert any(e["data"].get("origem") == "desfazer" for e in undone)
    assert session.overrides == {}
    assert session.tables.files["casa"] == tables.files["casa"]
    refused = session.run("região Floresta Sombria")  # no such region any more
    assert not refused.ok and "região desconhecida" in (refused.error or "")
    session.close()
    reopened = Session.open(db, None, tables)
    assert reopened.overrides == {} and reopened.opening == []
    reopened.close()


def test_the_gms_rules_are_kept_with_the_campaign_and_reopen(tmp_path: Path,
                                                             tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    ok(session.change_rules({**REGION, **TORCH_2}, "gm"))
    ok(session.run("região Floresta Sombria"))
    session.close()
    reopened = Session.open(db, None, tables)
    assert reopened.overrides == {**TORCH_2, **REGION}
    assert reopened.opening == []
    assert reopened.state.travel.region == "floresta-sombria"
    [table] = rolled(ok(reopened.run("encontro")), "Encontros: Floresta Sombria")
    assert table["resultado"] in ("Ent furioso", "Lobos negros (2d4)", "Bruxa da névoa",
                                  "Corvos que falam")
    assert not replay.differences(Log.read(db), tables, reopened.seed)
    reopened.close()


# ---------------------------------------------------------------------- safe across updates

def test_a_value_not_overridden_follows_the_shipped_default_one_overridden_does_not(
        tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    ok(session.change_rules(TORCH_2, "gm"))
    session.close()
    updated = changed_rules(tmp_path, "casa.yaml", "turnos: 24", "turnos: 30")  # lantern
    updated = changed_rules(tmp_path, "casa.yaml", "turnos: 6", "turnos: 8")  # torch
    reopened = Session.open(db, None, updated)
    assert reopened.tables.get("casa", "luz", "lanterna", "turnos") == 30  # followed
    assert reopened.tables.get("casa", "luz", "tocha", "turnos") == 2  # the GM's stays
    told = [e["data"].get("chave") for e in reopened.opening]
    assert "luz.lanterna.turnos" in told and "luz.tocha.turnos" not in told
    reopened.close()
