"""The report's main lines as plain text, for the terminal (`companion relatorio --sessao N`)."""
from __future__ import annotations

from companion.tables.narration import number_text
from companion.report.report_model import Count, Report
from companion.report.words import ReportWords
from companion.tables.files import Tables

def _counts(counts: tuple[Count, ...], nothing: str) -> str:
    return ", ".join(f"{c.amount} {c.name}" for c in counts) or nothing


def lines(report: Report, tables: Tables) -> list[str]:
    """The session, where it started and stopped, the seed's form, travel and the party."""
    words = tables.piece(ReportWords)
    label, section = words.label, words.section
    nothing = label("nada")
    title = words.titulo.format(sessao=report.span.number)
    out = [title,
           f"{label('onde_comecou')}: {report.start.clock} — {report.start.where}",
           f"{label('onde_parou')}: {report.end.clock} — {report.end.where}",
           f"{section('ficha')}:"]
    for form in report.forms:
        out += [f"  {label('regiao')}: {form.region}",
                f"    {label('criatura')}: {_counts(form.defeated, nothing)}",
                f"    {label('tesouro')}: {_counts(form.treasure, nothing)}",
                f"    {label('item')}: {_counts(form.items, nothing)}"]
    if not report.forms:
        out.append("  " + words.empty("ficha"))
    dice = ", ".join(f"{d.kind} × {d.dice}" for d in report.dice) or nothing
    out += [f"  {label('dado')}: {dice}",
            f"{section('viagem')}: {label('rodadas').lower()} {report.rounds}, "
            f"{label('hexes').lower()} {number_text(report.hexes)}, "
            f"{label('turnos').lower()} {report.dungeon_turns}",
            f"{section('personagens')}:"]
    for c in report.characters:
        marks = "; ".join([*c.afflictions, *c.conditions]) or nothing
        out.append(f"  {c.name}: {label('pv')} {c.hp[1]}/{c.hp[2]}, {label('exaustao').lower()} "
                   f"{c.exhaustion[1]}, {label('comida').lower()} {c.left[0]}, "
                   f"{label('agua').lower()} {c.left[1]}, {label('municao').lower()} "
                   f"{c.left[2]}; {marks}")
    return out
