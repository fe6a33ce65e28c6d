"""The report as HTML: one page with the seed's form filled in, tables and inline SVG charts,
laid out by the Jinja templates of web/templates/relatorio/.

`page(report, tables, ...)` gives a whole document. Served by the companion it links its
stylesheet (/static/css/relatorio.css: the pages' CSP allows no inline style); as a standalone
file (`companion relatorio --saida`) the same stylesheet is written inside it, so the file opens
anywhere with nothing else. Rendering needs no Flask app: the command-line tools write the
report too, so the templates are read by a plain jinja2 Environment of their own. The served
page's links (another session, the downloads) are forms that POST the viewer's token (`Post`).
"""
from __future__ import annotations

from functools import cache
from html import escape
from pathlib import Path
from typing import Any, Mapping, Sequence

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from companion.report import cells, charts
from companion.report.report_model import Post, Report
from companion.report.source import SessionSpan
from companion.report.words import ReportWords
from companion.tables import places
from companion.tables.files import Tables

WEB = places.program_folder("web")
TEMPLATES = WEB / "templates"
STYLESHEET = WEB / "static" / "css" / "relatorio.css"
PAGE = "relatorio/pagina.html"
SESSIONS = "relatorio/sessoes.html"
CHART = "relatorio/grafico.html"


def _escaped(value: Any) -> Any:
    """What `{{ value }}` writes: Python's html.escape of its text (quotes as &quot; and
    &#x27;, as the report always wrote them); markup (a macro's output, a chart) as it is."""
    if isinstance(value, Markup) or hasattr(value, "__html__"):
        return value
    return Markup(escape(value if isinstance(value, str) else str(value)))


@cache
def environment(folder: Path = TEMPLATES) -> Environment:
    """The report's templates (autoescaped; `cells` and `zip` at hand in every one)."""
    made = Environment(loader=FileSystemLoader(folder), autoescape=True, finalize=_escaped,
                       undefined=StrictUndefined, auto_reload=False)
    made.globals.update(cells=cells, zip=zip)
    return made


def svg(chart: charts.Chart) -> Markup:
    """One chart as inline SVG."""
    return Markup(environment().get_template(CHART).render(chart=chart))


def _dice_charts(report: Report, w: ReportWords) -> list[Markup]:
    """The dice rolled per type, then each die's faces against a fair die's (a die with
    more faces than `faces_no_grafico`, or none seen, gets no faces chart)."""
    if not report.dice:
        return []
    made = [charts.bars("dados-por-tipo", w.section("dados"), cells.dice(report))]
    for die in report.dice:
        seen = sum(die.faces)  # the dice whose face is known (the companion's own rolls)
        if not die.sides or die.sides > w.faces_no_grafico or seen == 0:
            continue
        made.append(charts.bars(
            f"faces-{die.kind}", cells.faces_title(die, w),
            [(str(i + 1), n) for i, n in enumerate(die.faces)],
            expected=seen / die.sides, expected_label=w.label("esperado"), height=200))
    return [svg(chart) for chart in made]


def _weather_chart(report: Report, w: ReportWords) -> Markup:
    if not report.weather:
        return Markup("")
    return svg(charts.steps("clima", w.section("clima"), cells.weather_labels(report),
                            [p.row for p in report.weather], report.weather_rows,
                            note=w.label("linha_clima")))


def _supplies_chart(report: Report, w: ReportWords) -> Markup:
    if len(report.supplies) < 2:
        return Markup("")
    return svg(charts.lines("provisoes", w.section("provisoes"),
                            [p.label for p in report.supplies],
                            cells.supply_series(report, w), note=w.label("total_grupo")))


def sessions_list(spans: Sequence[SessionSpan], tables: Tables,
                  link: Mapping[int, Post] | None = None, current: int | None = None,
                  counts: bool = True) -> str:
    """The campaign's sessions (number, start, end, commands), each linked to its report."""
    w = tables.piece(ReportWords)
    return environment().get_template(SESSIONS).render(
        w=w, rows=cells.session_rows(spans, w, link), current=current, counts=counts)


def page(report: Report, tables: Tables, standalone: bool = True,
         downloads: Mapping[str, Post] | None = None, sessions_html: str = "") -> str:
    """The whole report document."""
    w = tables.piece(ReportWords)
    stylesheet = Markup(STYLESHEET.read_text(encoding="utf-8")) if standalone else None
    made = {"dice": _dice_charts(report, w), "weather": _weather_chart(report, w),
            "supplies": _supplies_chart(report, w)}
    return environment().get_template(PAGE).render(
        report=report, w=w, stylesheet=stylesheet, charts=made, downloads=downloads or {},
        sessions=Markup(sessions_html))
