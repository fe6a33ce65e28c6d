"""The report's HTML, byte for byte: a scripted evening's GM and player pages against golden
files (tests/report/golden/), so a change of the templates (web/templates/relatorio/) or of
the cells (companion/report/cells.py) that changes the page is seen. The campaign's clock is
pinned (the log keeps the real one) with no time zone, so the dates read the same anywhere.
Regenerate after a deliberate change with

    UPDATE_GOLDEN=1 python -m pytest tests/report/test_report_html.py

and read the diff before committing it.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

import pytest

from companion.report import build, render
from companion.report.report_model import Post, Report
from companion.report.source import Campaign, open_campaign
from companion.session import Session
from companion.tables.files import Tables
from tests.report_helpers import EVENING, clear_prompts, play

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
CREATED = "2026-12-01T19:00:00"  # the campaign's clock, pinned: a minute per command
FIELDS = (("token", "t"), ("sessao", "1"))  # the served page POSTs them (never an address)
DOWNLOADS = {"baixar_csv": Post("/relatorio/eventos.csv", FIELDS),
             "baixar_json": Post("/relatorio/eventos.json", FIELDS),
             "baixar_html": Post("/relatorio/relatorio.html", FIELDS)}


def _at(n: int) -> str:
    return f"2026-12-01T{19 + n // 60:02d}:{n % 60:02d}:30"


def _pinned(campaign: Campaign, heard: list[tuple[Any, ...]]) -> Campaign:
    """The campaign with its clock pinned (the log keeps the real one) and what the voice
    heard (at the time of the command it names)."""
    commands = tuple(replace(c, at=_at(c.n)) for c in campaign.commands)
    utterances = tuple({"id": i, "at": _at(n), "text": text, "confidence": confidence,
                        "accepted": accepted, "command": command,
                        "n": n if command else None, "reason": reason}
                       for i, (n, text, confidence, accepted, command, reason)
                       in enumerate(heard, start=1))
    return replace(campaign, created=CREATED, commands=commands, utterances=utterances)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory, tables: Tables) -> Campaign:
    """The evening, a second session begun, a player, and what the voice heard (quotes and
    a '<' among it, which the page must escape)."""
    session = Session.open(tmp_path_factory.mktemp("html") / "campanha.db", 11, tables,
                           gm_token="mestre")
    play(session, EVENING)
    session.join_player("Bia")
    clear_prompts(session)
    play(session, ["encerrar sessão", "rolar 3d4", "3 ratos derrotados"])
    session.close()
    campaign = open_campaign(session.db_path)
    undone = next(c for c in campaign.commands if c.undone)
    kept = next(c for c in campaign.commands if c.name == "avancar")
    return _pinned(campaign, [
        (kept.n, "avançar", 0.93, 1, "avancar", None),
        (kept.n, "o \"ogro\" <fugiu> & 'riu'", 0.41, 0, None, "não é um comando"),
        (undone.n, "rolar dois d seis mais um", 0.88, 1, "rolar", None)])


def _page(campaign: Campaign, tables: Tables, report: Report, standalone: bool = True,
          downloads: Mapping[str, Post] | None = None) -> str:
    """The page of `report` with the campaign's sessions listed (linked on the served page)."""
    links = {span.number: Post("/relatorio", (("token", "t"), ("sessao", str(span.number))))
             for span in build.all_sessions(campaign)}
    listed = render.sessions_list(build.all_sessions(campaign), tables,
                                  links if downloads else None, report.span.number,
                                  counts=report.gm)
    return render.page(report, tables, standalone, downloads, listed)


def _matches_golden(name: str, page: str) -> None:
    golden = GOLDEN / name
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(page.encode("utf-8"))
    assert golden.exists(), f"{golden} não existe: gere com UPDATE_GOLDEN=1"
    expected = golden.read_bytes().replace(b"\r\n", b"\n")  # a Windows checkout's line ends
    assert page.encode("utf-8") == expected, f"{name} mudou"


def test_the_gms_page_is_the_golden_one(campaign: Campaign, tables: Tables) -> None:
    report = build.report(campaign, tables, 1)
    page = _page(campaign, tables, report, standalone=False, downloads=DOWNLOADS)
    assert "&lt;fugiu&gt; &amp; &#x27;riu&#x27;" in page  # what the voice heard, escaped
    _matches_golden("relatorio_mestre.html", page)


def test_a_players_page_is_the_golden_one(campaign: Campaign, tables: Tables) -> None:
    report = build.report(campaign, tables, 1, "player:bia", "Bia")
    page = _page(campaign, tables, report, standalone=False)
    assert "o ogro" not in page and "Só o Mestre" not in page
    _matches_golden("relatorio_jogador.html", page)


def test_a_quiet_sessions_page_is_the_golden_one(campaign: Campaign, tables: Tables) -> None:
    """Session 2 has dice and a form only: the other sections say they are empty."""
    report = build.report(campaign, tables, 2)
    page = _page(campaign, tables, report, standalone=False, downloads=DOWNLOADS)
    assert page.count('<p class="vazio">') >= 4
    _matches_golden("relatorio_mestre_sessao_2.html", page)


def test_a_standalone_page_holds_the_stylesheet_in_place_of_the_link(
        campaign: Campaign, tables: Tables) -> None:
    report = build.report(campaign, tables, 2)
    css = render.STYLESHEET.read_text(encoding="utf-8")
    alone = _page(campaign, tables, report)
    served = _page(campaign, tables, report, standalone=False)
    link = '<link rel="stylesheet" href="/static/css/relatorio.css">'
    assert alone.count("<style>") == 1 and served.count(link) == 1
    assert alone.replace(f"<style>{css}</style>", link) == served
