"""/relatorio on the real server and the report in real Chromium: the GM's page with its
charts, the player's version from /jogador, the downloads and the standalone printable file.
The token is POSTed (the pages' links are forms), never in an address."""
from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests

from companion.tables.protocol import may_see as visible_to
from companion.report import build
from companion.report.report_model import Post
from companion.report.source import open_campaign
from companion.server.app import start_in_thread
from companion.session import Session
from companion.tables.files import Tables
from tests.browser_helpers import (
    GM_TOKEN,
    PHONE,
    LiveTable,
    open_report,
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


def _get(table: LiveTable, path: str, token: str = GM_TOKEN, **fields: str) -> requests.Response:
    """A report as the pages ask for it: the token in the posted form."""
    return requests.post(table.server.url + path, data={"token": token, **fields}, timeout=10)


def _addresses(page: str) -> list[str]:
    """Every address a report page links or posts to."""
    return re.findall(r'(?:href|action|src)="([^"]*)"', page)


def test_the_gm_report_over_http(table: LiveTable) -> None:
    answer = _get(table, "/relatorio")
    assert answer.status_code == 200
    page = answer.text
    assert "Relatório da sessão 1" in page and "Ficha da sessão" in page
    assert page.count('class="grafico"') >= 4 and "<style" not in page and 'style="' not in page
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    secret = next(e for e in table.events() if e["visibility"] == "gm"
                  and e["command"] == "segredo")
    assert escape(secret["text"]) in page  # the GM's report holds the secret rolls
    assert _get(table, "/relatorio").text == page  # the same log, same page
    play(table.session, ["rolar 3d12"])
    again = _get(table, "/relatorio").text
    assert "d12" not in page and "d12" in again  # a new command, a new report
    csv_before = _get(table, "/relatorio/eventos.csv").text
    play(table.session, ["desfazer"])
    assert _get(table, "/relatorio/eventos.csv").text != csv_before
    tool = requests.get(f"{table.server.url}/relatorio/eventos.csv", timeout=10,
                        headers={"Authorization": f"Bearer {GM_TOKEN}"})
    assert tool.status_code == 200 and tool.text == _get(table, "/relatorio/eventos.csv").text


def test_a_wrong_token_gets_no_report(table: LiveTable) -> None:
    for path, token in (("/relatorio", ""), ("/relatorio", "errado"),
                        ("/relatorio/eventos.csv", "x")):
        answer = _get(table, path, token)
        assert answer.status_code == 403 and "link do Mestre" in answer.text
        assert "Ficha" not in answer.text


def test_a_token_in_the_address_is_not_read(table: LiveTable) -> None:
    """`?token=` stays in the history, the address bar, the Referer and the logs: the report
    does not take it (the pages POST it)."""
    for path in (f"/relatorio?token={GM_TOKEN}", f"/relatorio/eventos.csv?token={GM_TOKEN}"):
        answer = requests.get(table.server.url + path, timeout=10)
        assert answer.status_code == 403 and "link do Mestre" in answer.text
        assert "Relatório da sessão" not in answer.text and "Ficha" not in answer.text


def test_bad_session_numbers_are_refused(table: LiveTable) -> None:
    answer = _get(table, "/relatorio", sessao="dois")
    assert answer.status_code == 404 and "sessão inválida: &#x27;dois&#x27;; use o número" in answer.text
    answer = _get(table, "/relatorio", sessao="5")
    assert "sessão 5 não existe" in answer.text
    answer = _get(table, "/relatorio/eventos.xml")
    assert answer.status_code == 404 and "eventos.csv" in answer.text


def test_downloads(table: LiveTable) -> None:
    csv_answer = _get(table, "/relatorio/eventos.csv")
    assert csv_answer.status_code == 200
    assert "attachment" in csv_answer.headers["Content-Disposition"]
    assert csv_answer.content.startswith("\ufeffsessao,comando_n,".encode())
    semicolons = _get(table, "/relatorio/eventos.csv", separador=";")
    assert semicolons.content.startswith("\ufeffsessao;comando_n;".encode())
    refused = _get(table, "/relatorio/eventos.csv", separador="x")
    assert refused.status_code == 400 and "separador inválido" in refused.text
    assert len(csv_answer.text.splitlines()) > len(table.events()) // 2
    json_answer = _get(table, "/relatorio/eventos.json", sessao="1")
    assert len(json_answer.json()["eventos"]) == len(table.events())
    html_answer = _get(table, "/relatorio/relatorio.html")
    assert "<style>" in html_answer.text and "sessao-1-relatorio.html" in \
        html_answer.headers["Content-Disposition"]


def test_past_sessions_are_listed_and_reopen(table: LiveTable, tables: Tables) -> None:
    clear_prompts(table.session)
    play(table.session, ["encerrar sessão", "rolar 3d12"])
    page = _get(table, "/relatorio").text
    assert "Relatório da sessão 2" in page and 'data-sessao="1"' in page
    session_one = re.search(r'<tr data-sessao="1">.*?</tr>', page, re.S)
    assert session_one and 'method="post" action="/relatorio"' in session_one.group(0)
    assert 'name="sessao" value="1"' in session_one.group(0)
    assert f'name="token" value="{GM_TOKEN}"' in session_one.group(0)
    assert _addresses(page) and not [a for a in _addresses(page) if "token" in a or
                                     GM_TOKEN in a]
    first = _get(table, "/relatorio", sessao="1").text
    again = build.html(open_campaign(table.session.db_path), tables, 1, standalone=False,
                       downloads={"baixar_csv": Post("x", ())})
    marker = '<section id="exportar"'
    assert first.split(marker)[0] == again.split(marker)[0]  # the same report, reopened
    assert "d12" not in first.split(marker)[0] and "d12" in page


def _gm_report(table: LiveTable, context: Any) -> Any:
    """The report tab the GM's page opens (its link POSTs the token)."""
    gm = table.page("mestre", f"/mestre#token={GM_TOKEN}", context)
    gm.locator("#status.on").wait_for()
    report = open_report(gm)
    report.on("pageerror", lambda error: table.errors.append(str(error)))
    return report


def test_the_report_in_chromium_with_its_charts(table: LiveTable) -> None:
    context = table.context(PHONE)
    violations: list[str] = []
    context.on("console", lambda m: violations.append(m.text)
               if "Content Security Policy" in m.text else None)
    page = _gm_report(table, context)
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
    laptop = _gm_report(table, table.context({"width": 960, "height": 900}))
    laptop.locator("svg.grafico").first.wait_for()
    readme_screenshot(laptop, "relatorio", height=2300)


def test_the_player_opens_her_report_from_jogador(table: LiveTable) -> None:
    page = table.page("Bia", "/jogador", table.context(PHONE))
    page.get_by_label("Nome").fill("Bia")
    page.get_by_role("button", name="Entrar").click()
    link = page.locator("#report-link")
    link.wait_for()
    player = table.session.players()[0]
    assert link.get_attribute("href") == "/relatorio"
    report = open_report(page)
    report.locator("h1", has_text="Relatório da sessão 1 — Bia").wait_for()
    assert report.url == f"{table.server.url}/relatorio"
    assert player.token not in report.content().split("<main", 1)[0]
    text = report.locator("main").inner_text()
    events = table.events()
    for event in events:
        if not visible_to(event["visibility"], "player:bia") and event["text"].strip() and \
                all(event["text"] != e["text"] for e in events
                    if visible_to(e["visibility"], "player:bia")):
            assert event["text"] not in text, event["text"]
    assert "Só o Mestre" not in text
    screenshot(report, "relatorio-jogador")


def test_no_token_in_any_address_from_the_gm_page_to_the_downloads(table: LiveTable) -> None:
    """The GM's page → its report → another session → a download: no address, Referer or
    history entry carries the token (it is POSTed in a form each time)."""
    context = table.context(PHONE)
    sent: list[tuple[str, str, str]] = []
    context.on("request", lambda r: sent.append((r.method, r.url, r.headers.get("referer", ""))))
    report = _gm_report(table, context)
    assert report.locator("#report-link").count() == 0
    assert report.url == f"{table.server.url}/relatorio"
    report.locator("#sessoes form.ir button").first.click()
    report.locator("h1", has_text="Relatório da sessão 1").wait_for()
    with report.expect_download() as got:
        report.locator('#exportar form[action="/relatorio/eventos.csv"] button').click()
    download = got.value
    assert download.suggested_filename == "sessao-1-eventos.csv"
    assert Path(download.path()).read_text(encoding="utf-8-sig").startswith("sessao,")
    assert report.url == f"{table.server.url}/relatorio"
    assert report.evaluate("history.length") <= 2  # the report and the other session's page
    posted = [url for method, url, _ in sent if method == "POST" and "/relatorio" in url]
    assert posted == [f"{table.server.url}/relatorio"] * 2 + \
        [f"{table.server.url}/relatorio/eventos.csv"]
    assert not [(method, url, referer) for method, url, referer in sent
                if GM_TOKEN in url or GM_TOKEN in referer]


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
