"""test_house_rules.py, continued: the region tests."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.rules import overlay
from companion.history import replay
from companion.report import build
from companion.report.source import open_campaign
from companion.session import Session, SessionError, campaign_rules
from companion.store.lock import ServerLock
from companion.store.log import Log
from companion.tables.files import Tables
from companion.voice.phrases import voice_phrases
from companion.voice.service import session_phrases, session_reader
from companion.voice.strict_reading import read_voice
from tests.rules_helpers import changed_rules
from tests.rules.house_rules_helpers import (  # noqa: F401
    SOMBRIA,
    REGION,
    TORCH_2,
    ok,
    _told,
    cli,
)


def test_an_update_that_removes_an_overridden_key_tells_the_gm_once(tmp_path: Path,
                                                                   tables: Tables) -> None:
    """A campaign whose GM set a key this version no longer has (an older release's
    `descanso.vigia_padrao`, say): the GM is told once, the value dropped, the rest kept."""
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    ok(session.change_rules(TORCH_2, "gm"))
    session.close()
    older = {"casa": {"descanso": {"vigia_padrao": "ultimo"}, **TORCH_2["casa"]}}
    connection = sqlite3.connect(db)
    with connection:
        connection.execute("UPDATE house_rules SET overrides = ? WHERE n = "
                           "(SELECT MAX(n) FROM house_rules)", (overlay.dump(older),))
    connection.close()
    reopened = Session.open(db, None, tables)
    said = [e for e in reopened.opening if e["data"].get("origem") == "atualizacao"]
    assert [(e["data"]["chave"], e["data"]["antes"]) for e in said] == [
        ("descanso.vigia_padrao", "ultimo")]
    assert "não tem mais 1 regra" in reopened.opening[0]["text"]
    assert reopened.overrides == TORCH_2
    reopened.close()
    again = Session.open(db, None, tables)
    assert again.opening == [] and again.overrides == TORCH_2
    again.close()


def test_an_update_that_removes_an_overridden_light_source_tells_the_gm_once(
        tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    ok(session.change_rules({"casa": {"luz": {"lanterna": {"turnos": 12},
                                              "tocha": {"turnos": 2}}}}, "gm"))
    session.close()
    # an update whose luz has no lantern (and its sentences none either)
    updated = changed_rules(tmp_path, "casa.yaml", """  lanterna:
    nome: Lanterna
    turnos: 24
    apagou: A lanterna se apagou.
""", "")
    reopened = Session.open(db, None, updated)
    said = [e["data"] for e in reopened.opening if e["data"].get("origem") == "atualizacao"]
    assert said == [{"arquivo": "casa.yaml", "chave": "luz.lanterna", "antes": {"turnos": 12},
                     "depois": None, "origem": "atualizacao"}]
    assert reopened.overrides == TORCH_2
    reopened.close()
    assert Session.open(db, None, updated).opening == []


# ---------------------------------------------------------------------- creation from a file

def test_a_new_campaign_starts_from_another_campaigns_rules(tmp_path: Path,
                                                            tables: Tables) -> None:
    created = Session.open(tmp_path / "nova.db", 5, tables, rules={**REGION, **TORCH_2})
    assert created.overrides == {**TORCH_2, **REGION}
    assert created.tables.get("casa", "luz", "tocha", "turnos") == 2
    created.close()
    reopened = Session.open(tmp_path / "nova.db", None, tables)
    assert reopened.overrides == {**TORCH_2, **REGION} and reopened.opening == []
    reopened.close()
    with pytest.raises(SessionError) as refused:
        Session.open(tmp_path / "nova.db", None, tables, rules=TORCH_2)
    assert "regras importar" in refused.value.message
    with pytest.raises(SessionError) as bad:
        Session.open(tmp_path / "outra.db", 5, tables, rules={"casa": {"luz": {"tocha": {
            "turnos": -1}}}})
    assert "'luz.tocha.turnos'" in bad.value.message


def test_region_names_join_the_voice_phrase_list_and_are_read_back(tables: Tables) -> None:
    rules = overlay.patched(tables, {}, REGION).tables
    phrases = [p for p in voice_phrases(rules) if "sombria" in p.text]
    assert {p.command for p in phrases} >= {"regiao", "derrotados"}
    for phrase in phrases:
        read = read_voice(phrase.text, rules)
        assert read.command is not None and read.command.name == phrase.command, phrase
        assert read.command.args["regiao"] == "floresta-sombria"
    assert not [p for p in voice_phrases(tables) if "sombria" in p.text]


def test_export_then_import_into_a_new_campaign_gives_the_same_rules(
        tmp_path: Path, tables: Tables, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, third = (tmp_path / name for name in ("a.db", "b.db", "c.db"))
    session = Session.open(first, 3, tables)
    ok(session.change_rules({**REGION, **TORCH_2}, "gm"))
    session.close()
    exported = tmp_path / "regras.yaml"
    assert cli("regras", "exportar", "--db", first, "--saida", exported) == 0
    text = exported.read_text(encoding="utf-8")
    assert text.startswith("#") and "casa:\n  luz:\n    tocha:\n      turnos: 2\n" in text
    assert overlay.load(text, tables.narration) == {**TORCH_2, **REGION}
    # into a campaign that exists: one logged, undoable change
    Session.open(second, 4, tables).close()
    assert cli("regras", "importar", "--db", second, exported) == 0
    assert "mudou as regras da campanha (2 mudanças, de um arquivo)" in capsys.readouterr().out
    imported = Session.open(second, None, tables)
    assert imported.overrides == {**TORCH_2, **REGION}
    assert imported.commands()[-1].name == replay.RULES
    assert imported.commands()[-1].text == "regras importar regras.yaml"
    ok(imported.run("desfazer"))
    assert imported.overrides == {}
    imported.close()
    # a new campaign made from the file
    created = Session.open(third, 5, tables, rules=overlay.load(text, tables.narration))
    assert created.overrides == {**TORCH_2, **REGION}
    created.close()
    assert cli("regras", "exportar", "--db", third) == 0
    assert capsys.readouterr().out == text


def test_a_bad_import_changes_nothing_and_names_the_row(
        tmp_path: Path, tables: Tables, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.db"
    session = Session.open(db, 3, tables)
    ok(session.change_rules(TORCH_2, "gm"))
    session.close()
    before = Log.read(db).commands()
    bad = tmp_path / "ruim.yaml"
    bad.write_text("casa: {luz: {tocha: {turnos: 3}}}\nencontros:\n  regioes:\n"
                   "    floresta:\n      linhas: {1: Urso, 2: Lobos, 3: Ente, 4: Elfos, 5: Lobos,"
                   " 6: {texto: Goblins, quantidade: muitos}}\n", encoding="utf-8")
    assert cli("regras", "importar", "--db", db, bad) == 1
    said = capsys.readouterr().err
    assert "ruim.yaml" in said and "nada mudou" in said
    assert "tables/encontros.yaml: 'regioes.floresta.linhas.6.quantidade' deveria ser uma " \
           "expressão de dados" in said
    assert Log.read(db).commands() == before  # not even the torch of the same file
    broken = tmp_path / "quebrado.yaml"
    broken.write_text("casa: {luz: [\n", encoding="utf-8")
    assert cli("regras", "importar", "--db", db, broken) == 2
    assert "quebrado.yaml: YAML inválido (linha 2)" in capsys.readouterr().err
    assert Log.read(db).commands() == before


def test_import_is_refused_while_a_server_has_the_campaign_open(
        tmp_path: Path, tables: Tables, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.db"
    Session.open(db, 3, tables).close()
    exported = tmp_path / "regras.yaml"
    exported.write_text(overlay.export_text(TORCH_2, tables.narration), encoding="utf-8")
    lock = ServerLock(db)
    assert lock.acquire("http://192.168.0.12:5000/mestre")
    try:
        assert cli("regras", "importar", "--db", db, exported) == 2
        said = capsys.readouterr().err
        assert "aberta num servidor" in said and "http://192.168.0.12:5000/mestre" in said
        assert "tela Regras" in said
    finally:
        lock.release()
    assert cli("regras", "importar", "--db", db, exported) == 0


def test_rules_at_creation_only(tmp_path: Path, tables: Tables,
                                capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "a.db"
    exported = tmp_path / "regras.yaml"
    exported.write_text(overlay.export_text(TORCH_2, tables.narration), encoding="utf-8")
    Session.open(db, 3, tables).close()
    assert cli("shell", "--db", db, "--regras", exported) == 2
    assert "regras importar" in capsys.readouterr().err


def test_the_report_names_the_region_in_the_form_and_the_encounters(tmp_path: Path,
                                                                    tables: Tables) -> None:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 3, tables)
    ok(session.change_rules(REGION, "gm"))
    ok(session.run("região Floresta Sombria"))
    ok(session.run("encontro"))
    ok(session.run("derrotados 2 lobos"))
    ok(session.run("avançar"))
    session.close()
    # the report read with the shipped tables only (as `companion relatorio` starts) and with
    # the campaign's: the region is named the same
    for rules in (tables, campaign_rules(db, tables)[1]):
        report = build.report(open_campaign(db, rules), rules)
        assert [form.region for form in report.forms] == ["Floresta Sombria"]
        assert {e.where for e in report.encounters} == {"Floresta Sombria"}
        assert [c.name for c in report.terrains] == ["Floresta Sombria"]
    assert "Floresta Sombria (Floresta)" in ok(Session.open(db, None, tables).run("estado"))[0][
        "text"]


def test_renaming_a_region_later_leaves_the_past_encounters_named_as_they_were(
        tmp_path: Path, tables: Tables) -> None:
    """History is kept: an encounter rolled in the Floresta Sombria stays there in the report
    after the GM renames the region (the roll keeps the name it had)."""
    db = tmp_path / "campanha.db"
    session = Session.open(db, 3, tables)
    ok(session.change_rules(REGION, "gm"))
    ok(session.run("região Floresta Sombria"))
    ok(session.run("encontro"))
    renamed = {"encontros": {"regioes": {"floresta-sombria": {**SOMBRIA,
                                                              "regiao": "Mata dos Ecos"}}}}
    ok(session.change_rules(renamed, "gm"))
    session.close()
    rules = campaign_rules(db, tables)[1]
    report = build.report(open_campaign(db, rules), rules)
    assert {e.where for e in report.encounters} == {"Floresta Sombria"}


def test_the_live_voice_hears_a_region_named_after_it_started(tables: Tables) -> None:
    session = Session.open(None, 3, tables)
    phrases, reader = session_phrases(session, tables), session_reader(session, tables)
    assert not [p for p in phrases() if "sombria" in p]
    ok(session.change_rules(REGION, "gm"))
    said = [p for p in phrases() if "sombria" in p]
    assert said
    read = reader()(said[0])
    assert read.command is not None and read.command.args["regiao"] == "floresta-sombria"


def test_commands_after_reopening_are_stored_under_the_campaigns_rules(
        tmp_path: Path, tables: Tables) -> None:
    """A command run after reopening ran under the GM's rules, and is stored so: an update
    later tells the GM what the update changed, never the GM's own values as news."""
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    ok(session.change_rules(TORCH_2, "gm"))
    session.close()
    reopened = Session.open(db, None, tables)
    ok(reopened.run("personagem Ana"))
    reopened.close()
    updated = changed_rules(tmp_path, "casa.yaml", "turnos: 24", "turnos: 30")  # lantern
    again = Session.open(db, None, updated)
    told = [e["data"].get("chave") for e in again.opening]
    assert "luz.lanterna.turnos" in told and "luz.tocha.turnos" not in told
    again.close()


def test_the_report_reads_a_region_after_the_campaign_reopened(tmp_path: Path,
                                                               tables: Tables) -> None:
    """Commands run after reopening are stored under the campaign's rules: the report builds
    their views with the GM's region (it was a KeyError under the shipped rules)."""
    db = tmp_path / "campanha.db"
    session = Session.open(db, 5, tables)
    ok(session.change_rules(REGION, "gm"))
    ok(session.run("região Floresta Sombria"))
    session.close()
    reopened = Session.open(db, None, tables)
    ok(reopened.run("avançar"))
    reopened.close()
    told = _told(db, tables, "gm")
    assert told[-1][1] == "avançar" and told[-1][3]["regiao_nome"] == "Floresta Sombria"


def test_the_campaigns_voice_names_stay_apart_from_the_shipped_lists(tmp_path: Path,
                                                                     tables: Tables) -> None:
    """The names a campaign added to the voice lists are only its own (nomes_da_voz.yaml): an
    update of the shipped lists (voz.yaml) reaches it, and its own names stay."""
    from companion.voice.config import voice_config

    own = {"nomes_da_voz": {"magia": ["Raio do Trovão"]}}
    assert overlay.patched(tables, {}, own).overrides == own
    updated = changed_rules(tmp_path, "voz.yaml", "luz, luz contínua,",
                            "luz, luz contínua, chuva de meteoros,")
    lists = voice_config(overlay.settle(updated, own).tables).free_lists
    assert {"raio do trovao", "chuva de meteoros", "luz"} <= set(lists["magia"])
    assert {"raio do trovao", "chuva de meteoros"} <= set(lists["nome"])
    assert "raio do trovao" not in voice_config(updated).free_lists["magia"]
