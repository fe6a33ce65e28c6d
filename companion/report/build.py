"""One call from a campaign to a report, an export or the list of sessions."""
from __future__ import annotations

from typing import Mapping

from companion.tables import protocol
from companion.engine.characters import slug
from companion.report import cells, gather, render
from companion.report import export as exporting
from companion.report.report_errors import ReportError
from companion.report.report_model import Post, Report
from companion.report.source import Campaign, SessionSpan, entries, find_session, gc_paused
from companion.report.source import sessions as all_sessions
from companion.report.words import ReportWords
from companion.tables.files import Tables

GM = "gm"


def viewer_for(campaign: Campaign, name: str | None, tables: Tables
               ) -> tuple[str, str | None]:
    """'gm' without a name; 'player:<id>' for a character of the campaign's players."""
    if not name:
        return GM, None
    wanted = slug(name)
    for _token, character_id, shown in campaign.players:
        if character_id == wanted or slug(shown) == wanted:
            return protocol.player_key(character_id), shown
    raise ReportError(tables.narration.render("relatorio.jogador_desconhecido", {
        "nome": name, "jogadores": sorted({p[2] for p in campaign.players})}))


def report(campaign: Campaign, tables: Tables, number: int | None = None,
           viewer: str = GM, viewer_name: str | None = None) -> Report:
    with gc_paused():
        span = find_session(campaign, number)
        start, found = entries(campaign, span, tables, viewer)
        return gather.build(campaign, span, start, found, tables, viewer, viewer_name)


def html(campaign: Campaign, tables: Tables, number: int | None = None, viewer: str = GM,
         viewer_name: str | None = None, standalone: bool = True,
         downloads: Mapping[str, Post] | None = None,
         session_links: Mapping[int, Post] | None = None) -> str:
    made = report(campaign, tables, number, viewer, viewer_name)
    listed = render.sessions_list(all_sessions(campaign), tables, session_links,
                                  made.span.number, counts=made.gm)
    return render.page(made, tables, standalone, downloads, listed)


def export(campaign: Campaign, tables: Tables, kind: str, number: int | None = None,
           viewer: str = GM, separator: str = ",") -> str:
    if kind not in exporting.FORMATS:
        raise ReportError(tables.narration.render("relatorio.formato_desconhecido",
                                                  {"formato": kind}))
    exporting.check_separator(separator)
    span = find_session(campaign, number)
    with gc_paused():
        _start, found = entries(campaign, span, tables, viewer)
    words = tables.piece(ReportWords)
    return exporting.export(kind, span, found, (words.label("sim"), words.label("nao")),
                            viewer == GM, separator)


def sessions_text(campaign: Campaign, tables: Tables) -> str:
    """The list of sessions as lines for the terminal."""
    return "\n".join(tables.narration.render("relatorio.sessao", {
        "numero": span.number, "inicio": cells.when(span.started),
        "fim": cells.when(span.ended) if span.ended else None,
        "comandos": span.commands, "desfeitos": span.undone})
        for span in all_sessions(campaign))


__all__ = ["report", "html", "export", "sessions_text", "viewer_for", "all_sessions",
           "find_session", "SessionSpan", "ReportError"]
