"""The session's events for people who keep their own records: CSV and JSON.

One row/object per event the viewer saw, in order, with its command (number, text, who, when,
undone) and the event (seq, kind, visibility, text, data as JSON in the CSV). A CSV cell that
starts like a spreadsheet formula (= + - @) is written with a leading apostrophe. The CSV starts
with a UTF-8 BOM (so a spreadsheet reads the accents right) and may use ";" between columns
(what a pt-BR spreadsheet splits on, since "," is its decimal mark).
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Sequence

from companion.report.report_errors import ReportError, narration
from companion.report.source import Entry, SessionSpan

FORMATS = ("csv", "json")
SEPARATORS = (",", ";")
BOM = "\ufeff"
COLUMNS = ("sessao", "comando_n", "comando_texto", "comando", "quem", "quando", "desfeito",
           "seq", "tipo", "visibilidade", "texto", "dados")


def rows(span: SessionSpan, entries: Sequence[Entry], gm: bool = True) -> list[dict[str, Any]]:
    """One flat dict per event, in log order. A player's rows have no command number (it
    would count the GM's hidden commands) and their seq is the player's own numbering."""
    out = []
    for entry in entries:
        c = entry.command
        for event in entry.events:
            out.append({"sessao": span.number, "comando_n": c.n if gm else "",
                        "comando_texto": c.text, "comando": c.name, "quem": c.actor,
                        "quando": c.at, "desfeito": c.undone, "seq": event["seq"],
                        "tipo": event["kind"], "visibilidade": event["visibility"],
                        "texto": event["text"], "dados": event["data"]})
    return out


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula


def cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: one starting like a formula gets a leading
    apostrophe (a player's line '=HYPERLINK(…)' must not become a link in the GM's sheet)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def check_separator(separator: str) -> str:
    """The CSV column separator, or ReportError saying which are accepted."""
    if separator not in SEPARATORS:
        raise ReportError(narration().render("relatorio.separador_invalido",
                                             {"separador": separator}))
    return separator


def to_csv(span: SessionSpan, entries: Sequence[Entry], yes_no: tuple[str, str],
           gm: bool = True, separator: str = ",") -> str:
    """The events as CSV; `yes_no` is what the 'desfeito' column says ('sim', 'não')."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n",
                            delimiter=check_separator(separator))
    writer.writeheader()
    for row in rows(span, entries, gm):
        written = {**row, "desfeito": yes_no[0] if row["desfeito"] else yes_no[1],
                   "dados": json.dumps(row["dados"], ensure_ascii=False)}
        writer.writerow({key: cell(value) for key, value in written.items()})
    return buffer.getvalue()


def to_json(span: SessionSpan, entries: Sequence[Entry], gm: bool = True) -> str:
    document: dict[str, Any] = {"sessao": span.number, "inicio": span.started,
                                "fim": span.ended, "eventos": rows(span, entries, gm)}
    if gm:
        document["comandos"] = span.commands
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def export(kind: str, span: SessionSpan, entries: Sequence[Entry], yes_no: tuple[str, str],
           gm: bool = True, separator: str = ",") -> str:
    """The events as `kind` ('csv' or 'json', the CSV's columns split by `separator`, its
    yes and no said `yes_no`); anything else is refused."""
    if kind == "csv":
        return to_csv(span, entries, yes_no, gm, separator)
    if kind == "json":
        return to_json(span, entries, gm)
    raise ReportError(narration().render("relatorio.formato_desconhecido", {"formato": kind}))
