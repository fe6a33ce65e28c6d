"""/relatorio on the real server and the report in real Chromium: the GM's page with its
charts, the player's version from /jogador, the downloads and the standalone printable file."""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests

from companion.tables.protocol import may_see as visible_to
from companion.report import build
from companion.report.source import open_campaign
from companion.server.app import start_in_thread
from companion.session import Session
from companion.tables.files import Tables
from tests.browser_helpers import (
    GM_TOKEN,
    PHONE,
    LiveTable,
    readme_screenshot,
    screenshot,
)
from tests.report_helpers import EVENING, clear_prompts, play


@pytest.fixture
def table(tmp_path: Path, tables: Tables, browser: Any) -> Iterator[LiveTable]:
    session = Session.open(tmp_path / "campanha.db", 11, tables, gm_token=GM_TOKEN)
    play(session, EVENING)
    server = start_in_thread(session)
    live = LiveTable(session, server, browser)
    try:
        yield live
        assert live.recorder.foreign() == [], live.recorder.foreign()
        assert live.errors == [], live.errors
    finally:
        live.close()
        server.stop()
        session.close()


def _get(table: LiveTable, path: str) -> requests.Response:
    return requests.get(table.server.url + path, timeout=10)


def test_the_gm_report_over_http(table: LiveTable) -> None:
    answer = _get(table, f"/relatorio?token={GM_TOKEN}")
    assert answer.status_code == 200
    page = answer.text
    assert "Relatório da sessão 1" in page and "Ficha da sessão" in page
    assert page.count('class="grafico"') >= 4 and "<style" not in page and 'style="' not in page
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    secret = next(e for e in table.events() if e["visibility"] == "gm"
                  and e["command"] == "segredo")
    assert escape(secret["text"]) in page  # the GM's report holds the secret rolls
    assert _get(table, f"/relatorio?token={GM_TOKEN}").text == page  # the same log, same page
    play(table.session, ["rolar 3d12"])
    again = _get(table, f"/relatorio?token={GM_TOKEN}").text
    assert "d12" not in page and "d12" in again  # a new command, a new report
    csv_before = _get(table, f"/relatorio/eventos.csv?token={GM_TOKEN}").text
    play(table.session, ["desfazer"])
    assert _get(table, f"/relatorio/eventos.csv?token={GM_TOKEN}").text != csv_before


def test_a_wrong_token_gets_no_report(table: LiveTable) -> None:
    for path in ("/relatorio", "/relatorio?token=errado", "/relatorio/eventos.csv?token=x"):
        answer = _get(table, path)
        assert answer.status_code == 403 and "link do Mestre" in answer.text
        assert "Ficha" not in answer.text


def test_bad_session_numbers_are_refused(table: LiveTable) -> None:
    answer = _get(table, f"/relatorio?token={GM_TOKEN}&sessao=dois")
    assert answer.status_code == 404 and "sessão inválida: &#x27;dois&#x27;; use o número" in answer.text
    answer = _get(table, f"/relatorio?token={GM_TOKEN}&sessao=5")
    assert "sessão 5 não existe" in answer.text
    answer = _get(table, f"/relatorio/eventos.xml?token={GM_TOKEN}")
    assert answer.status_code == 404 and "eventos.csv" in answer.text


def test_downloads(table: LiveTable) -> None:
    csv_answer = _get(table, f"/relatorio/eventos.csv?token={GM_TOKEN}")
    assert csv_answer.status_code == 200
    assert "attachment" in csv_answer.headers["Content-Disposition"]
    assert csv_answer.content.startswith("\ufeffsessao,comando_n,".encode())
    semicolons = _get(table, f"/relatorio/eventos.csv?token={GM_TOKEN}&separador=;")
    assert semicolons.content.startswith("\ufeffsessao;comando_n;".encode())
    refused = _get(table, f"/relatorio/eventos.csv?token={GM_TOKEN}&separador=x")
    assert refused.status_code == 400 and "separador inválido" in refused.text
    assert len(csv_answer.text.splitlines()) > len(table.events()) // 2
    json_answer = _get(table, f"/relatorio/eventos.json?token={GM_TOKEN}&sessao=1")
    assert len(json_answer.json()["eventos"]) == len(table.events())
    html_answer = _get(table, f"/relatorio/relatorio.html?token={GM_TOKEN}")
    assert "<style>" in html_answer.text and "sessao-1-relatorio.html" in \
        html_answer.headers["Content-Disposition"]


def test_past_sessions_are_listed_and_reopen(table: LiveTable, tables: Tables) -> None:
    clear_prompts(table.session)
    play(table.session, ["encerrar sessão", "rolar 3d12"])
    page = _get(table, f"/relatorio?token={GM_TOKEN}").text
    assert "Relatório da sessão 2" in page and 'data-sessao="1"' in page
    assert f"/relatorio?token={GM_TOKEN}&amp;sessao=1" in page
    first = _get(table, f"/relatorio?token={GM_TOKEN}&sessao=1").text
    again = build.html(open_campaign(table.session.db_path), tables, 1, standalone=False,
                       downloads={"baixar_csv": "x"})
    marker = '<section id="exportar"'
    assert first.split(marker)[0] == again.split(marker)[0]  # the same report, reopened
    assert "d12" not in first.split(marker)[0] and "d12" in page


def test_the_report_in_chromium_with_its_charts(table: LiveTable) -> None:
    context = table.context(PHONE)
    violations: list[str] = []
    page = context.new_page()
    page.on("console", lambda m: violations.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda error: table.errors.append(str(error)))
    page.goto(f"{table.server.url}/relatorio?token={GM_TOKEN}")
    page.locator("#ficha table.ficha").first.wait_for()
    charts = page.locator("svg.grafico")
    assert charts.count() >= 4
    for index in range(charts.count()):
        box = charts.nth(index).bounding_box()
        assert box and box["width"] > 250 and box["height"] > 60  # drawn, at phone width
    assert page.locator("svg.grafico rect.barra").count() > 6
    assert page.locator('svg[data-grafico="clima"] polyline.linha').count() == 1
    assert page.locator('svg[data-grafico="provisoes"] polyline.linha').count() == 3
    form = page.locator('table.ficha[data-regiao="Floresta"]').inner_text()
    assert "goblins" in form and "moedas de ouro" in form
    assert violations == []
    shot = screenshot(page, "relatorio")
    assert shot.stat().st_size > 10_000
    laptop = table.page("relatório no notebook", f"/relatorio?token={GM_TOKEN}",
                        table.context({"width": 960, "height": 900}))
    laptop.locator("svg.grafico").first.wait_for()
    readme_screenshot(laptop, "relatorio", height=2300)


def test_the_player_opens_her_report_from_jogador(table: LiveTable) -> None:
    page = table.page("Bia", "/jogador", table.context(PHONE))
    page.get_by_label("Nome").fill("Bia")
    page.get_by_role("button", name="Entrar").click()
    link = page.locator("#report-link")
    link.wait_for()
    href = link.get_attribute("href") or ""
    player = table.session.players()[0]
    assert href == f"/relatorio?token={player.token}"
    report = table.page("Bia relatório", href, table.context(PHONE))
    report.locator("h1", has_text="Relatório da sessão 1 — Bia").wait_for()
    text = report.locator("main").inner_text()
    events = table.events()
    for event in events:
        if not visible_to(event["visibility"], "player:bia") and event["text"].strip() and \
                all(event["text"] != e["text"] for e in events
                    if visible_to(e["visibility"], "player:bia")):
            assert event["text"] not in text, event["text"]
    assert "Só o Mestre" not in text
    screenshot(report, "relatorio-jogador")


def test_the_gm_page_links_its_report(table: LiveTable) -> None:
    page = table.page("mestre", f"/mestre?token={GM_TOKEN}", table.context(PHONE))
    assert page.locator("#report-link").get_attribute("href") == \
        f"/relatorio?token={GM_TOKEN}"


def test_the_standalone_file_opens_and_prints(table: LiveTable, tables: Tables,
                                              tmp_path: Path) -> None:
    out = tmp_path / "relatorio.html"
    out.write_text(build.html(open_campaign(table.session.db_path), tables), encoding="utf-8")
    context = table.browser.new_context(viewport={"width": 900, "height": 1200})
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    try:
        page = context.new_page()
        page.goto(out.as_uri())
        page.locator("svg.grafico").first.wait_for()
        assert page.locator("svg.grafico").count() >= 4
        # its own styles came with it: the form's region is bold, the page is not the default
        weight = page.eval_on_selector("td.regiao", "c => getComputedStyle(c).fontWeight")
        assert weight == "700"
        assert requested == [out.as_uri()]  # nothing else loaded: self-contained
        screenshot(page, "relatorio-arquivo")
        pdf = page.pdf(format="A4")
        assert pdf[:4] == b"%PDF" and len(pdf) > 20_000
    finally:
        context.close()
