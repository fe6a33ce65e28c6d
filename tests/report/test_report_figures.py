"""The report's figures say what they count (issue 31, item 6): the dice table and the faces
chart agree (physical dice apart), a failed escape is not a chase, the day's weather holds the
GM's `clima` re-roll, and a player's command column says an answer as what was done. Real
sessions on real SQLite files."""
from __future__ import annotations

import re
from pathlib import Path

from companion.report import build, cells
from companion.report.source import open_campaign
from companion.report.words import ReportWords
from companion.session import Session
from companion.tables.files import Tables
from tests.report_helpers import play


def _campaign(tmp_path: Path, tables: Tables, lines: list[str], seed: int = 5,
              players: tuple[str, ...] = ()) -> tuple[Session, Path]:
    session = Session.open(tmp_path / "c.db", seed, tables, gm_token="mestre")
    play(session, lines)
    for name in players:
        session.join_player(name)
    return session, Path(session.db_path)


def test_the_dice_table_and_the_faces_chart_agree_and_say_the_physical_dice(
        tmp_path: Path, tables: Tables) -> None:
    """'Dados rolados: d20 3' beside 'd20: faces (2 vezes)' left the GM guessing: the table
    says the companion's dice and the physical ones apart, and the chart which it counts."""
    session, db = _campaign(tmp_path, tables, [
        "personagem Ana", "teste de des Ana dificuldade 12", "responder 15",
        "rolar 1d20", "rolar 1d20"])
    session.close()
    campaign = open_campaign(db)
    report = build.report(campaign, tables)
    d20 = next(d for d in report.dice if d.kind == "d20")
    assert (d20.rolled, d20.physical, d20.dice) == (2, 1, 3)
    assert sum(d20.faces) == d20.rolled
    words = tables.piece(ReportWords)
    page = build.html(campaign, tables)
    table = re.search(r'<table class="dados">.*?</table>', page, re.S)
    assert table is not None
    assert words.label("dados_companheiro") in table.group(0)
    assert words.label("dados_fisicos") in table.group(0)
    row = re.search(r"<tr><td[^>]*>d20</td>(.*?)</tr>", table.group(0))
    assert row is not None
    assert re.findall(r">(\d+)</td>", row.group(1)) == ["2", "1", "3"]
    title = cells.faces_title(d20, words)
    assert "2" in title and title in page  # the chart counts the companion's 2 ...
    charts = re.search(r'<section id="graficos-dados".*?</section>', page, re.S)
    assert charts is not None  # ... and says the physical one it leaves out
    assert cells.left_out(report, words) == words.label("faces_fora").format(dados="1 d20")
    assert cells.left_out(report, words) in charts.group(0)


def test_a_failed_escape_is_not_a_chase(tmp_path: Path, tables: Tables) -> None:
    session, db = _campaign(tmp_path, tables, [
        "personagem Ana", "terreno floresta", "fugir", "fuga falha"])
    session.close()
    report = build.report(open_campaign(db), tables)
    assert report.chases == ()
    assert [(f.day, f.where) for f in report.failed_escapes] == [(1, "Floresta")]
    page = build.html(open_campaign(db), tables)
    chases = re.search(r'<section id="perseguicoes".*?</section>', page, re.S)
    assert chases is not None
    words = tables.piece(ReportWords)
    assert words.empty("perseguicoes") in chases.group(0)  # no chase at all
    assert words.section("fugas_falhas") in chases.group(0)
    assert f'data-rotulo="{words.label("turnos_perseguicao")}"' not in chases.group(0)


def test_the_days_weather_holds_the_gms_reroll(tmp_path: Path, tables: Tables) -> None:
    session, db = _campaign(tmp_path, tables, [
        "personagem Ana", "terreno floresta", "avançar", "clima", "clima"])
    rerolls = [e["data"]["resultado"] for c in session.commands() if c.name == "clima"
               for e in session.events_of(c.n)]
    session.close()
    report = build.report(open_campaign(db), tables)
    assert len(rerolls) == 2
    texts = [p.text for p in report.weather]
    assert texts[-2:] == rerolls
    day_one = dict(cells.weather_days(report))[1]
    assert day_one.split(" → ")[-1] == rerolls[-1]


def test_a_players_command_column_says_an_answer_as_done(tmp_path: Path,
                                                         tables: Tables) -> None:
    """'responder um pedido 5' read as prompt nº 5: the column says 'respondeu com 5'."""
    session, db = _campaign(tmp_path, tables, [
        "personagem Ana", "personagem Bia", "teste de des Ana dificuldade 12",
        "teste de des Bia dificuldade 12"], players=("Ana", "Bia"))
    ids = {p.character: p.id for p in session.state.prompts}
    assert session.run(f"responder pedido {ids['bia']} 5", actor="player:bia").ok
    assert session.run(f"responder pedido {ids['ana']} 7", actor="player:ana").ok
    session.close()
    campaign = open_campaign(db)
    ana = build.report(campaign, tables, viewer="player:ana", viewer_name="Ana")
    said = {e["texto_comando"] for e in ana.log}
    assert "respondeu com 5" in said  # Bia's answer: not Ana's prompt, no number
    assert "respondeu ao pedido 1 com 7" in said  # her own, in her own numbers
    assert not any("um pedido" in text or "responder" in text for text in said)
    assert "inicio_sessao" not in said  # the session's start in words, not its identifier
