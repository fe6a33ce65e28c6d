"""Each session's report and export, the command-line report, what a player's report shows
and keeps off, dungeon turns, chases across sessions and the GM's notes (the report's shape:
test_report.py)."""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli
from companion.report import build, charts, render
from companion.report.source import open_campaign, sessions
from companion.report.words import ReportWords
from companion.session import Session
from companion.tables.errors import TableError
from companion.tables.files import Tables
from tests.report_helpers import clear_prompts, play
from tests.report_helpers import play as run_lines
from tests.rules_helpers import changed_rules
from tests.report.report_report_helpers import (  # noqa: F401
    evening,
    _report,
    STEPS,
    DUNGEON_NIGHT,
)


def test_the_command_line_report(evening: Session, tables: Tables, tmp_path: Path,
                                 capsys: Any) -> None:
    out = tmp_path / "relatorio.html"
    assert cli.main(["relatorio", "--db", evening.db_path, "--saida", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<style>" in page and "<svg" in page
    assert "/static/" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    assert cli.main(["relatorio", "--db", evening.db_path]) == 0
    assert "sessão 1: início" in capsys.readouterr().out
    assert cli.main(["relatorio", "--db", evening.db_path, "--sessao", "4"]) == \
        cli.STARTUP_FAILURE
    assert "sessão 4 não existe" in capsys.readouterr().err
    assert cli.main(["relatorio", "--db", evening.db_path, "--sessao", "dois"]) == \
        cli.STARTUP_FAILURE
    assert "sessão inválida: 'dois'; use o número da sessão" in capsys.readouterr().err
    assert cli.main(["relatorio", "--db", str(tmp_path / "nada.db")]) == cli.STARTUP_FAILURE
    assert "banco não encontrado" in capsys.readouterr().err
    assert not (tmp_path / "nada.db").exists()
    assert cli.main(["relatorio", "--db", evening.db_path, "--saida", str(out),
                     "--jogador", "Zé"]) == cli.STARTUP_FAILURE
    assert "jogador desconhecido: 'Zé'" in capsys.readouterr().err


# ---------------------------------------------------------------- charts

def test_bars_mark_the_fair_expectation() -> None:
    svg = render.svg(charts.bars("faces-d6", "d6", [("1", 2), ("2", 4)], expected=3,
                                 expected_label="esp"))
    assert svg.count('class="barra"') == 2 and 'class="esperado"' in svg
    assert "<title>2: 4</title>" in svg and "esp: 3" in svg
    assert "style=" not in svg  # the pages' CSP allows no inline style


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=st.lists(STEPS, max_size=18), seed=st.integers(0, 10_000))
def test_every_sessions_report_matches_the_engines_form(tmp_path_factory: Any, tables: Tables,
                                                        script: list[str], seed: int) -> None:
    """Whatever is played, undone or ended, each session's report counts exactly the form the
    engine kept for that session (handed over in the boundary's event, or the live one)."""
    path = tmp_path_factory.mktemp("prop") / "c.db"
    session = Session.open(path, seed, tables)
    session.run("personagem Ana")
    for line in script:
        if line == "cancelar Ana":
            for prompt in list(session.state.prompts):
                session.run(f"cancelar pedido {prompt.id}")
            continue
        session.run(line)  # refusals are fine: they change nothing
    campaign = open_campaign(path)
    spans = sessions(campaign)
    assert len(spans) == session.state.session
    for span in spans:
        report = build.report(campaign, tables, span.number)
        if span.ended is None:
            form = {"dados": dict(session.state.tally.dice),
                    "derrotados": {r: dict(c) for r, c in session.state.tally.defeated.items()},
                    "tesouro": dict(session.state.tally.treasure)}
        else:
            boundary = next(c for c in campaign.commands if c.n == span.last)
            form = next(e["data"]["registro"] for e in campaign.events[boundary.n]
                        if "registro" in e["data"])
        assert {d.kind: d.dice for d in report.dice} == form["dados"]
        assert {(f.region, c.name): c.amount for f in report.forms for c in f.defeated} == \
            {(r, k): v for r, counts in form["derrotados"].items() for k, v in counts.items()}
        assert sum(c.amount for f in report.forms for c in f.treasure) == \
            sum(form["tesouro"].values())
    session.close()


def test_each_session_has_its_own_summary_and_export(evening: Session, tables: Tables,
                                                     tmp_path: Path, capsys: Any) -> None:
    clear_prompts(evening)
    boundary = len(evening.commands()) + 1
    play(evening, ["encerrar sessão", "rolar 3d4", "3 ratos derrotados"])
    assert cli.main(["relatorio", "--db", evening.db_path, "--sessao", "1"]) == 0
    first = capsys.readouterr().out
    assert "Relatório da sessão 1" in first and "goblins" in first and "ratos" not in first
    assert cli.main(["relatorio", "--db", evening.db_path, "--sessao", "2"]) == 0
    second = capsys.readouterr().out.split("Relatório da sessão 2", 1)[1]
    assert "3 ratos" in second and "goblins" not in second and "d4 × 3" in second

    out = tmp_path / "s2.csv"
    assert cli.main(["exportar", "--db", evening.db_path, "--formato", "csv", "--saida",
                     str(out), "--sessao", "2"]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert {r["sessao"] for r in rows} == {"2"}
    assert [int(r["comando_n"]) for r in rows] == sorted(
        int(r["comando_n"]) for r in rows) and int(rows[0]["comando_n"]) == boundary + 1
    assert [r["texto"] for r in rows] == [
        e["text"] for c in evening.commands() if c.n > boundary
        for e in open_campaign(evening.db_path).events[c.n]]


def test_a_chase_left_running_ends_in_the_next_session(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "f.db", 2, tables)
    play(session, ["personagem Ana", "fugir", "fuga sucesso", "fuga sucesso", "nova sessão",
                   "fuga sucesso"])
    first, second = _report(session, tables, 1), _report(session, tables, 2)
    assert [(c.turns, c.outcome) for c in first.chases] == [(1, "a sessão continua")]
    assert len(second.chases) == 1 and second.chases[0].outcome.startswith("Fuga!")
    assert second.chases[0].turns == 2
    session.close()


def test_the_gm_notes_hold_this_sessions_secret_rolls(tmp_path: Path, tables: Tables) -> None:
    session = Session.open(tmp_path / "s.db", 2, tables)
    play(session, ["segredo escutar a porta", "nova sessão", "segredo 1d6 procurar armadilhas",
                   "masmorra", "monstro ogro na sala 3"])
    first, second = _report(session, tables, 1), _report(session, tables, 2)
    assert len(first.gm_notes["segredos"]) == 1
    assert "escutar a porta" in first.gm_notes["segredos"][0]
    assert len(second.gm_notes["segredos"]) == 1
    assert "procurar armadilhas" in second.gm_notes["segredos"][0]
    assert [m["nome"] for m in second.gm_notes["monstros"]] == ["ogro"]
    assert _report(session, tables, 2, "player:ana", "Ana").gm_notes == {}
    session.close()


def test_the_reports_words_are_a_typed_piece(tables: Tables, tmp_path: Path) -> None:
    words = tables.piece(ReportWords)
    assert words.titulo == "Relatório da sessão {sessao}"
    assert words.procura.tabelas_panico[0] == "Tabela J: Pânico"
    with pytest.raises(TableError, match=r"^tables/relatorio\.yaml: chave desconhecida em "
                                         r"'\(raiz\)': faces_no_grafic$"):
        changed_rules(tmp_path, "relatorio.yaml", "faces_no_grafico: 20",
                      "faces_no_grafico: 20\nfaces_no_grafic: 6").piece(ReportWords)
    with pytest.raises(TableError, match=r"tables/relatorio\.yaml: chave 'rotulos\.zz'"):
        words.label("zz")


# ---------------------------------------------------------------- what a play-test caught

def test_a_party_lost_before_a_dungeon_is_reported_lost(tmp_path: Path, tables: Tables) -> None:
    """Lost in the hexcrawl stays lost inside a dungeon: the GM's report of a session that ends
    in one says so (it used to say 'não')."""
    session = Session.open(tmp_path / "p.db", 7, tables)
    play(session, ["terreno pântano"])
    for _ in range(15):
        play(session, ["avançar"])
        clear_prompts(session)  # the forced-march tests: waived
        if session.state.travel.lost:
            break
    assert session.state.travel.lost, "com a semente 7 o grupo deveria se perder no pântano"
    play(session, ["masmorra"])
    assert _report(session, tables).gm_notes["perdido"] is True
    page = build.html(open_campaign(session.db_path), tables)
    assert "<b>O grupo está perdido:</b> sim" in page
    session.close()


def test_a_players_report_gives_no_gm_instruction_and_labels_the_chase_day(
        tmp_path: Path, tables: Tables) -> None:
    """A player cannot note defeated monsters: their empty session form just says so. On a
    phone each chase row is a card, and its first cell (the day) keeps its name."""
    session = Session.open(tmp_path / "j.db", 7, tables)
    play(session, ["personagem Ana", "fugir", "fuga sucesso"])
    gm = build.html(open_campaign(session.db_path), tables)
    player = build.html(open_campaign(session.db_path), tables, None, "player:ana", "Ana")
    assert "anote com" in gm and "anote com" not in player
    assert "Nada anotado nesta sessão." in player
    assert 'class="empilhada rotulada"' in player and 'data-rotulo="Dia">1</td>' in player
    css = (Path(__file__).resolve().parents[2] / "web/static/css/relatorio.css").read_text()
    assert "table.empilhada.rotulada td:first-child::before { content: attr(data-rotulo)" in css
    session.close()


def test_every_dungeon_arrival_is_a_row_of_encounters_as_each_viewer_saw_it(
        tmp_path: Path, tables: Tables) -> None:
    """Seed 7: monsters reach the party's room during the turns and later in the sleep
    (public), and an adjacent room at hour 2 (the GM's); no travel encounter in the rounds
    the night crosses: the GM's report has three rows, a player's the two she saw. (The seed
    moved from 4 when the travel rounds that begin during the sleep got their own weather
    and encounter dice.)"""
    session = Session.open(tmp_path / "m.db", 7, tables)
    play(session, DUNGEON_NIGHT)
    events = session.events_since(0)
    public = [e for e in events if e["visibility"] == "public"
              and e["text"].startswith("Encontro! Os monstros chegam")]
    arrivals = [e for e in events if e["data"].get("tabela") == "Fim do Turno"]
    assert (len(public), len(arrivals)) == (2, 3)
    gm = _report(session, tables)
    assert [e.what for e in gm.encounters] == [e["data"]["resultado"] for e in arrivals]
    ana = _report(session, tables, None, "player:ana", "Ana")
    assert [e.what for e in ana.encounters] == [e["text"] for e in public]  # what she saw
    session.close()


def test_a_public_panic_result_is_in_every_players_report(tmp_path: Path,
                                                          tables: Tables) -> None:
    session = Session.open(tmp_path / "p.db", 5, tables)
    play(session, ["personagem Ana pv 12 sanidade 3", "personagem Bia pv 10", "pânico Ana",
                   "responder 18"])
    said = [e["text"] for e in session.events_since(0) if e["visibility"] == "public"
            and "falhou no teste de pânico" in e["text"]]
    assert said == ["Ana falhou no teste de pânico (18 > Sanidade 3)."]
    for viewer, name in (("player:bia", "Bia"), ("player:ana", "Ana"), ("gm", None)):
        report = _report(session, tables, None, viewer, name)
        (line,) = [c for c in report.characters if c.name == "Ana"]
        assert said[0] in line.panic, viewer
    bia = _report(session, tables, None, "player:bia", "Bia")
    (line,) = [c for c in bia.characters if c.name == "Ana"]
    assert all("Tabela J" not in text for text in line.panic)  # the effect is Ana's and the GM's
    session.close()


def test_the_report_counts_every_dungeon_turn_and_joins_sentences(tmp_path: Path,
                                                                  tables: Tables) -> None:
    session = Session.open(tmp_path / "t.db", 5, tables)
    run_lines(session, ["personagem Ana sanidade 3", "masmorra", "acender tocha", "turno",
                        "descansar", "turno", "pânico Ana", "responder 20", "pânico Ana",
                        "responder 20"])
    turns = [e for e in session.events_since(0) if e["text"].startswith("Turno de exploração")]
    report = build.report(open_campaign(session.db_path), tables)
    assert report.dungeon_turns == len(turns) == 3
    page = build.html(open_campaign(session.db_path), tables)
    assert ".;" not in page
    session.close()


def test_a_private_insanity_stays_off_the_other_players_report(tmp_path: Path,
                                                              tables: Tables) -> None:
    """The panic's effect is private by default: the Insanidade it leaves is in Ana's and the
    GM's report, never in Bia's (one visibility per fact, issue 26)."""
    session = Session.open(tmp_path / "i.db", 5, tables)
    play(session, ["personagem Ana pv 12 sanidade 1", "personagem Bia pv 10", "pânico Ana",
                   "responder 20"])
    for viewer, name, shown in (("gm", None, ("Insanidade",)),
                                ("player:ana", "Ana", ("Insanidade",)),
                                ("player:bia", "Bia", ())):
        marks = {c.name: c.conditions for c in
                 _report(session, tables, None, viewer, name).characters}
        assert marks["Ana"] == shown, viewer
    session.close()


def test_the_report_is_built_with_the_cyclic_collector_paused_and_leaves_it_on(
        evening: Session, tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long campaign's events are tens of thousands of live objects: the collector's full
    passes over them were a third of a report's time. It is off while the log is read and the
    report built, on again afterwards (and a collector the caller had off stays off)."""
    import gc

    from companion.report import gather, source

    seen: list[bool] = []
    real_build, real_read = gather.build, source._read_log
    monkeypatch.setattr(gather, "build",
                        lambda *args: seen.append(gc.isenabled()) or real_build(*args))
    monkeypatch.setattr(source, "_read_log",
                        lambda *args: seen.append(gc.isenabled()) or real_read(*args))
    assert gc.isenabled()
    build.report(open_campaign(evening.db_path, tables), tables)
    assert seen == [False, False] and gc.isenabled()
    gc.disable()
    try:
        build.report(open_campaign(evening.db_path, tables), tables)
        assert not gc.isenabled()
    finally:
        gc.enable()
