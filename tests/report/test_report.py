"""The session report: tallies equal the log's, sessions of a campaign, voice, who sees what,
export and the command line. Real sessions on real SQLite files."""
from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion import cli
from companion.report import build
from companion.report.source import ReportError, open_campaign, sessions
from companion.session import Session
from companion.tables.files import Tables
from companion.tables.protocol import may_see as visible_to
from tests.report_helpers import clear_prompts, play
from tests.report.report_report_helpers import (  # noqa: F401
    evening,
    _live_events,
    _report,
    UTTERANCES,
)


# ---------------------------------------------------------------- tallies

def test_the_report_counts_what_the_log_holds(evening: Session, tables: Tables) -> None:
    events = _live_events(Path(evening.db_path))
    report = _report(evening, tables)

    dice: Counter[str] = Counter()
    faces: Counter[tuple[str, int]] = Counter()
    for event in events:
        for kind, values in event["data"].get("faces", []):
            dice[kind] += len(values)
            faces.update((kind, v) for v in values)
        for kind, count in (event["data"].get("dados_fisicos") or {}).items():
            dice[kind] += count  # a physical die answered on a prompt ('responder 20')
    assert any(e["data"].get("dados_fisicos") for e in events)  # the evening has one
    assert {d.kind: d.dice for d in report.dice} == dict(dice)
    for die in report.dice:
        assert {i + 1: n for i, n in enumerate(die.faces) if n} == \
            {v: n for (k, v), n in faces.items() if k == die.kind}
    # ... and the engine's own tally agrees (the same dice, the same form)
    assert {d.kind: d.dice for d in report.dice} == dict(evening.state.tally.dice)

    defeated = {(f.region, c.name): c.amount for f in report.forms for c in f.defeated}
    logged = {(e["data"]["regiao"], e["data"]["criatura"]): e["data"]["quantidade"]
              for e in events if e["command"] == "derrotados" and "criatura" in e["data"]}
    assert defeated == logged == {("Floresta", "goblins"): 3, ("Masmorra", "ogro"): 1}
    treasure = {(f.region, c.name): c.amount for f in report.forms for c in f.treasure}
    assert treasure == {("Floresta", "moedas de ouro"): 50, ("Masmorra", "gemas"): 12}
    assert sum(c.amount for f in report.forms for c in f.treasure) == \
        sum(evening.state.tally.treasure.values())
    assert {c.name: c.amount for f in report.forms for c in f.items} == \
        dict(evening.state.tally.items)

    rounds = [e for e in events if {"dia", "rodada"} <= set(e["data"])]
    assert report.rounds == len(rounds) > 0
    assert report.hexes == sum(e["data"]["hexes"] for e in events if "hexes" in e["data"])
    set_outright = {"Clima inicial", "Clima rolado de novo"}  # tables/clima.yaml: total = row
    assert [p.text for p in report.weather] == \
        [e["data"]["clima"] if "clima" in e["data"] else e["data"]["resultado"] for e in events
         if ("clima" in e["data"] and "linha" in e["data"])
         or e["data"].get("tabela") in set_outright]
    assert report.dungeon_turns == 2
    assert [(c.name, c.amount) for c in report.lights] == [("tocha", 1)]
    assert report.chases and report.chases[0].outcome.startswith("Fuga!")
    ana = next(c for c in report.characters if c.name == "Ana")
    shot = next(e["data"] for e in events if e["data"].get("campos", {}).get("municao")
                is not None)
    assert ana.spent[2] == shot["antes"]["municao"] - shot["campos"]["municao"] == 5
    assert ana.left[2] == evening.state.party[0].ammo
    assert any("Tabela J" in text for text in ana.panic)
    assert ana.exhaustion[1] == evening.state.party[0].exhaustion
    assert report.undone == ((next(c.n for c in evening.commands() if c.undone), "rolar 2d6+1"),)


def test_the_lights_agree_with_their_number(tmp_path: Path, tables: Tables) -> None:
    """'Luzes acesas: 1 tocha, 2 lanternas' (tables/relatorio.yaml procura.luzes)."""
    from companion.report.render import page

    session = Session.open(tmp_path / "l.db", 3, tables)
    play(session, ["masmorra", "acender tocha", "acender lanterna", "apagar lanterna",
                   "acender lanterna"])
    report = _report(session, tables)
    assert [(c.name, c.amount) for c in report.lights] == [("tocha", 1), ("lanternas", 2)]
    assert "Luzes acesas:</b> 1 tocha, 2 lanternas</p>" in page(report, tables)
    session.close()


def test_an_undone_roll_is_not_counted(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "a.db", 3, tables)
    play(session, ["rolar 3d8", "desfazer", "rolar 1d4"])
    report = _report(session, tables)
    assert {d.kind: d.dice for d in report.dice} == {"d4": 1, "d6": 1}  # d6: initial weather
    session.close()


def test_encounters_say_where(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "e.db", 3, tables)
    play(session, ["terreno pântano", "encontro"])
    report = _report(session, tables)
    rolled = [e for e in session.events_since(0) if e["data"].get("tabela", "").startswith(
        "Encontros:")]
    assert [(e.where, e.what) for e in report.encounters] == \
        [("Pântano", rolled[0]["data"]["resultado"])]
    session.close()


# ---------------------------------------------------------------- sessions of a campaign

def test_a_new_session_carries_over_what_should(evening: Session, tables: Tables) -> None:
    clear_prompts(evening)
    before = evening.state
    result = evening.run("encerrar sessão")
    assert result.ok, result.error
    after = evening.state
    assert after.session == before.session + 1 == 2
    assert after.party == before.party  # HP, supplies, exhaustion, afflictions, conditions
    assert after.minutes == before.minutes and after.travel == before.travel
    assert after.dungeon == before.dungeon  # position, lights, the GM's monster list
    assert after.tally.dice == {} and after.tally.defeated == {} and after.tally.treasure == {}
    public = [e for e in result.events if e["visibility"] == "public"]
    assert "sessão 2" in public[0]["text"] and public[0]["data"]["sessao"] == 2
    gm_form = [e for e in result.events if e["visibility"] == "gm"][0]["data"]["registro"]
    assert gm_form["dados"] == dict(before.tally.dice)

    # the next session's form starts empty and counts only its own dice
    play(evening, ["rolar 2d10", "registro"])
    assert evening.state.tally.dice == {"d10": 2}
    second = _report(evening, tables)
    assert second.span.number == 2 and {d.kind: d.dice for d in second.dice} == {"d10": 2}
    assert second.start.clock == _report(evening, tables, 1).end.clock


def test_session_end_refused_while_a_prompt_waits(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "p.db", 3, tables)
    play(session, ["personagem Ana", "pânico Ana"])
    n = len(session.commands())
    result = session.run("nova sessão")
    assert not result.ok and "pedidos esperando resposta" in (result.error or "")
    assert len(session.commands()) == n and session.state.session == 1
    session.close()


def test_session_end_can_be_undone_and_survives_a_restart(tmp_path: Path,
                                                          tables: Tables) -> None:
    path = tmp_path / "c.db"
    session = Session.open(path, 5, tables)
    play(session, ["personagem Ana", "rolar 1d6", "próxima sessão"])
    assert session.state.session == 2 and session.state.tally.dice == {}
    play(session, ["desfazer"])
    # the d6 of the initial weather and the one rolled
    assert session.state.session == 1 and session.state.tally.dice == {"d6": 2}
    assert len(sessions(open_campaign(path))) == 1
    play(session, ["nova sessão", "rolar 1d8"])
    session.close()

    reopened = Session.open(path, None, tables)  # what `companion serve` does: go on
    assert reopened.state.session == 2 and reopened.state.tally.dice == {"d8": 1}
    spans = sessions(open_campaign(path))
    assert [s.number for s in spans] == [1, 2] and spans[0].ended and spans[1].ended is None
    reopened.close()


def test_a_past_session_reopens_to_the_same_report(evening: Session, tables: Tables) -> None:
    clear_prompts(evening)
    play(evening, ["encerrar sessão"])
    first = _report(evening, tables, 1)
    play(evening, ["avançar", "rolar 4d6", "tesouro 3 anéis", "nova sessão", "rolar 1d4"])
    again = _report(evening, tables, 1)
    assert again == first
    assert [s.number for s in sessions(open_campaign(evening.db_path))] == [1, 2, 3]
    page = build.html(open_campaign(evening.db_path), tables, 1)
    assert "Relatório da sessão 1" in page and "anéis" not in page


def test_an_unknown_session_is_refused(evening: Session, tables: Tables) -> None:
    with pytest.raises(ReportError, match="sessão 7 não existe; esta campanha tem as sessões"):
        _report(evening, tables, 7)


@pytest.mark.parametrize("command_column", ["command", "name"])
def test_commands_heard_by_voice(evening: Session, tables: Tables, command_column: str) -> None:
    assert _report(evening, tables).utterances == ()
    assert "nenhum comando por voz" in build.html(open_campaign(evening.db_path), tables)
    commands = evening.commands()
    undone = next(c for c in commands if c.undone)
    kept = next(c for c in commands if c.name == "avancar")
    with sqlite3.connect(evening.db_path) as connection:
        connection.execute(UTTERANCES.format(command=command_column))
        connection.executemany(
            f"INSERT INTO utterances (at, text, confidence, accepted, {command_column}, n, "
            "reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(kept.at, "avançar", 0.93, 1, "avancar", kept.n, None),
             (kept.at, "o ogro fugiu", 0.41, 0, None, None, "não é um comando"),
             (undone.at, "rolar dois d seis mais um", 0.88, 1, "rolar", undone.n, None)])
    heard = _report(evening, tables).utterances
    assert [(u.text, u.confidence, u.accepted, u.undone) for u in heard] == [
        ("avançar", 0.93, True, False), ("o ogro fugiu", 0.41, False, False),
        ("rolar dois d seis mais um", 0.88, True, True)]
    page = build.html(open_campaign(evening.db_path), tables)
    assert "93%" in page and "não é um comando" in page and "rolar (nº" in page
    assert "nenhum comando por voz" not in page
    player = build.html(open_campaign(evening.db_path), tables, None, "player:ana", "Ana")
    assert "o ogro fugiu" not in player


# ---------------------------------------------------------------- who sees what

def test_the_player_version_shows_only_what_she_saw(evening: Session, tables: Tables) -> None:
    campaign = open_campaign(evening.db_path)
    events = evening.events_since(0)
    hidden = {e["text"] for e in events if not visible_to(e["visibility"], "player:bia")}
    shown = {e["text"] for e in events if visible_to(e["visibility"], "player:bia")}
    page = build.html(campaign, tables, None, "player:bia", "Bia")
    gm_page = build.html(campaign, tables)
    from html import escape
    secret = [t for t in hidden - shown if escape(t) in gm_page]
    assert secret, "the evening has GM-only events"
    for text in secret:
        assert escape(text) not in page, text
    assert "Só o Mestre" not in page and "Comandos por voz" not in page
    report = build.report(campaign, tables, None, "player:bia", "Bia")
    seqs = [e["seq"] for e in report.log]
    assert seqs == list(range(1, len(seqs) + 1))  # her own numbering: no gap shows a secret
    seen: Counter[str] = Counter()
    for event in _live_events(Path(evening.db_path)):
        if visible_to(event["visibility"], "player:bia"):
            for kind, values in event["data"].get("faces", []):
                seen[kind] += len(values)
    assert {d.kind: d.dice for d in report.dice} == dict(seen)
    assert sum(seen.values()) < sum(evening.state.tally.dice.values())  # secret rolls left out


def test_export_csv_and_json(evening: Session, tables: Tables, tmp_path: Path) -> None:
    out = tmp_path / "eventos.csv"
    assert cli.main(["exportar", "--db", evening.db_path, "--formato", "csv",
                     "--saida", str(out)]) == 0
    assert out.read_bytes().startswith(b"\xef\xbb\xbfsessao,")  # a BOM: spreadsheets read UTF-8
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert [int(r["seq"]) for r in rows] == [e["seq"] for e in evening.events_since(0)]
    assert json.loads(rows[0]["dados"]) == evening.events_since(0)[0]["data"]
    out_json = tmp_path / "eventos.json"
    assert cli.main(["exportar", "--db", evening.db_path, "--formato", "json",
                     "--saida", str(out_json)]) == 0
    document = json.loads(out_json.read_text(encoding="utf-8"))
    assert document["sessao"] == 1 and len(document["eventos"]) == len(rows)
    assert {e["desfeito"] for e in document["eventos"]} == {True, False}


def test_a_players_export_has_only_her_events(evening: Session, tables: Tables,
                                              tmp_path: Path) -> None:
    evening.join_player("Bia")
    out = tmp_path / "bia.json"
    assert cli.main(["exportar", "--db", evening.db_path, "--formato", "json",
                     "--saida", str(out), "--jogador", "bia"]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))["eventos"]
    expected = [e for e in evening.events_since(0) if visible_to(e["visibility"], "player:bia")]
    # the GM reads an undo as typed, a player as people say it (the only texts that differ)
    said = {"Desfeito: 'rolar 2d6+1'": "Desfeito: a rolagem de 2d6+1"}
    assert [r["texto"] for r in rows] == [said.get(e["text"], e["text"]) for e in expected]
    assert said["Desfeito: 'rolar 2d6+1'"] in [r["texto"] for r in rows]
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
    assert {r["comando_n"] for r in rows} == {""}  # command numbers would count GM commands
    assert {r["visibilidade"] for r in rows} <= {"public", "player:bia"}


def test_export_csv_with_semicolons_for_a_pt_br_spreadsheet(evening: Session, tmp_path: Path,
                                                            capsys: Any) -> None:
    comma, semicolon = tmp_path / "virgula.csv", tmp_path / "ponto-e-virgula.csv"
    for out, separator in ((comma, ","), (semicolon, ";")):
        assert cli.main(["exportar", "--db", evening.db_path, "--formato", "csv",
                         "--saida", str(out), "--separador", separator]) == 0
    text = semicolon.read_text(encoding="utf-8-sig")
    assert text.startswith("sessao;comando_n;comando_texto;")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    assert rows == list(csv.DictReader(io.StringIO(comma.read_text(encoding="utf-8-sig"))))
    bad = tmp_path / "tab.csv"
    assert cli.main(["exportar", "--db", evening.db_path, "--formato", "csv",
                     "--saida", str(bad), "--separador", "|"]) == cli.STARTUP_FAILURE
    assert "separador inválido: '|'; use , ou ;" in capsys.readouterr().err
    assert not bad.exists()


def test_export_refuses_a_bad_format(evening: Session, tables: Tables, tmp_path: Path,
                                     capsys: Any) -> None:
    out = tmp_path / "x.xml"
    assert cli.main(["exportar", "--db", evening.db_path, "--formato", "xml",
                     "--saida", str(out)]) == cli.STARTUP_FAILURE
    assert "formato desconhecido: 'xml'; use csv ou json" in capsys.readouterr().err
    assert not out.exists()
