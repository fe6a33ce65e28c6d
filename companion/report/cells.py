"""What each cell of the report says: the report's facts as short texts and rows, with the
words of tables/relatorio.yaml. No markup here: web/templates/relatorio/ lays them out."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Sequence

from companion.report.report_model import Count, DieCount, Post, Report, RegionForm
from companion.report.source import SessionSpan
from companion.report.words import ReportWords
from companion.tables.narration import counted, number_text

Row = tuple[Any, ...]


def when(iso: str | None) -> str:
    """'2026-12-01T21:24:00+00:00' → '01/12/2026 18:24' in this computer's time zone (the
    GM's laptop); a text that is not an ISO time is shown as it is."""
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%d/%m/%Y %H:%M")


def title(report: Report, w: ReportWords) -> str:
    """The report's title: the session, and whose report it is for a player."""
    if report.gm:
        return w.titulo.format(sessao=report.span.number)
    return w.titulo_jogador.format(sessao=report.span.number, nome=report.viewer_name or "")


def counts(found: Sequence[Count]) -> str:
    return ", ".join(f"{c.amount} {c.name}" for c in found)


def summary(report: Report, w: ReportWords) -> list[Row]:
    """(label, value): when it started and ended, where; the GM's command counts."""
    span = report.span
    rows: list[Row] = [
        (w.label("inicio"), when(span.started)),
        (w.label("fim"), when(span.ended) if span.ended else w.label("em_jogo")),
        (w.label("onde_comecou"), f"{report.start.clock} — {report.start.where}"),
        (w.label("onde_parou"), f"{report.end.clock} — {report.end.where}")]
    if report.gm:
        rows += [(w.label("comandos"), span.commands), (w.label("desfeitos"), span.undone)]
    return rows


def form_lines(form: RegionForm, w: ReportWords) -> list[Row]:
    """(kind, name, amount's label, amount) of one region's form; a kind with nothing
    noted is one line saying so."""
    nothing = w.label("nada")
    kinds = [(w.label("criatura"), w.label("derrotada"), form.defeated),
             (w.label("tesouro"), w.label("tesouro_qtd"), form.treasure),
             (w.label("item"), w.label("item_qtd"), form.items)]
    lines: list[Row] = []
    for kind, amount, found in kinds:
        for count in found or (Count(nothing, 0),):
            lines.append((kind, count.name, amount, count.amount if found else nothing))
    return lines


def form_empty(report: Report, w: ReportWords) -> str:
    """What an empty form says (the GM is told how to note; a player only that nothing was)."""
    return w.empty("ficha" if report.viewer == "gm" else "ficha_jogador")


def dice(report: Report) -> list[Row]:
    """(type, all dice) per die type: the bars of the dice chart."""
    return [(d.kind, d.dice) for d in report.dice]


def dice_head(w: ReportWords) -> list[str]:
    return [w.label("dado"), w.label("dados_companheiro"), w.label("dados_fisicos"),
            w.label("dados_qtd")]


def dice_rows(report: Report) -> list[Row]:
    """(type, rolled by the companion, physical dice answered on prompts, all of them): the
    faces chart counts only the first (a physical die's face is not always known)."""
    return [(d.kind, d.rolled, d.physical, d.dice) for d in report.dice]


def faces_title(die: DieCount, w: ReportWords) -> str:
    """A faces chart's title: the dice it counts (the companion's rolls)."""
    return w.label("faces_titulo").format(dado=die.kind, vezes=die.rolled)


def left_out(report: Report, w: ReportWords) -> str:
    """What the faces charts leave out: the physical dice answered on prompts ('1 d20'),
    or nothing when there were none."""
    physical = [f"{d.physical} {d.kind}" for d in report.dice if d.physical]
    return w.label("faces_fora").format(dados=", ".join(physical)) if physical else ""


def travel(report: Report, w: ReportWords) -> list[Row]:
    """(label, value): days, rounds, dungeon turns, hexes and the terrains crossed."""
    terrains = ", ".join(f"{c.name} ({counted(c.amount, w.label('rodada').lower())})"
                         for c in report.terrains)
    return [(w.label("dias"), f"{report.start.day} → {report.end.day}"),
            (w.label("dias_completos"), report.days_ended),
            (w.label("rodadas"), report.rounds),
            (w.label("turnos"), report.dungeon_turns),
            (w.label("hexes"), number_text(report.hexes)),
            (w.label("terrenos"), terrains or w.label("nada"))]


def travelled(report: Report) -> bool:
    return bool(report.rounds or report.dungeon_turns or report.days_ended)


def weather_labels(report: Report) -> list[str]:
    """The weather chart's x labels: 'day.round', or the day alone."""
    return [f"{p.day}.{p.round}" if p.round else str(p.day) for p in report.weather]


def weather_days(report: Report) -> list[Row]:
    """(day, the day's weather in turn), a repeated weather said once."""
    by_day: dict[int, list[str]] = {}
    for point in report.weather:
        texts = by_day.setdefault(point.day, [])
        if not texts or texts[-1] != point.text:
            texts.append(point.text)
    return [(day, " → ".join(texts)) for day, texts in by_day.items()]


def encounters(report: Report) -> list[Row]:
    return [(e.day, e.round or "", e.where, e.what) for e in report.encounters]


def supplies_head(w: ReportWords) -> list[str]:
    return [w.label("personagem"), w.label("comida"), w.label("agua"), w.label("municao")]


def supplies(report: Report, w: ReportWords) -> list[Row]:
    """What each character spent, and the party's total when there are several."""
    rows: list[Row] = [(c.name, *c.spent) for c in report.characters]
    total = tuple(sum(c.spent[i] for c in report.characters) for i in range(3))
    return rows + ([(w.label("total"), *total)] if len(rows) > 1 else [])


def lights(report: Report, w: ReportWords) -> str:
    return counts(report.lights) or w.label("nada")


def supply_series(report: Report, w: ReportWords) -> list[tuple[str, list[int]]]:
    """The party's food, water and ammunition over the session, for the chart."""
    return [(w.label("comida"), [p.food for p in report.supplies]),
            (w.label("agua"), [p.water for p in report.supplies]),
            (w.label("municao"), [p.ammo for p in report.supplies])]


def sentences(texts: Sequence[str]) -> str:
    """Whole sentences one after the other ('Ana falhou… Tabela J…'), never '.;'."""
    return " ".join(text if text.rstrip().endswith((".", "!", "?")) else text.rstrip() + "."
                    for text in texts)


def characters_head(w: ReportWords) -> list[str]:
    return [w.label("personagem"), w.label("pv"), w.label("exaustao"), w.label("panico"),
            w.label("aflicoes"),
            f"{w.label('comida')} / {w.label('agua')} / {w.label('municao')}"]


def characters(report: Report, w: ReportWords) -> list[Row]:
    """Each character: HP, exhaustion (with the session's highest), panic, marks, supplies."""
    rows: list[Row] = []
    for c in report.characters:
        exhaustion = f"{c.exhaustion[0]} → {c.exhaustion[1]}"
        if c.exhaustion[2] > c.exhaustion[1]:
            exhaustion += f" ({w.label('maximo')} {c.exhaustion[2]})"
        marks = "; ".join([*c.afflictions, *c.conditions]) or w.label("nada")
        rows.append((c.name, f"{c.hp[0]} → {c.hp[1]} / {c.hp[2]}", exhaustion,
                     sentences(c.panic) or w.label("nada"), marks,
                     f"{c.left[0]} / {c.left[1]} / {c.left[2]}"))
    return rows


def chases(report: Report) -> list[Row]:
    return [(c.day, c.where, c.turns, c.outcome) for c in report.chases]


def failed_escapes(report: Report) -> list[Row]:
    """(day, where, what the failed test said): flights that never became a chase."""
    return [(f.day, f.where, f.outcome) for f in report.failed_escapes]


def voice(report: Report, w: ReportWords) -> list[Row]:
    """What the voice listener heard: when, what, how sure, taken or not, the command, why."""
    rows: list[Row] = []
    for u in report.utterances:
        confidence = f"{round(u.confidence * 100)}%" if u.confidence is not None else ""
        accepted = "" if u.accepted is None else w.label("sim" if u.accepted else "nao")
        command = u.command + (f" ({w.label('numero')} {u.n})" if u.n else "") + \
            (f" — {w.label('desfeito')}" if u.undone else "")
        rows.append((when(u.at), u.text, confidence, accepted, command, u.reason))
    return rows


def lost(report: Report, w: ReportWords) -> str:
    return w.label("sim" if report.gm_notes.get("perdido") else "nao")


def monsters(report: Report, w: ReportWords) -> str:
    """The GM's monster list: each name, with its room when it has one."""
    return ", ".join(f"{m['nome']}" + (f" ({w.label('sala')} {m['sala']})"
                                       if m.get("sala") else "")
                     for m in report.gm_notes.get("monstros", [])) or w.label("nenhum")


def secrets(report: Report) -> list[str]:
    return list(report.gm_notes.get("segredos", []))


def log_marks(event: Mapping[str, Any]) -> str:
    """The classes of one event's line besides 'evento': undone, secret."""
    return (" desfeito" if event.get("desfeito") else "") + \
        (" segredo" if event["visibility"] != "public" else "")


def session_rows(spans: Sequence[SessionSpan], w: ReportWords,
                 link: Mapping[int, Post] | None) -> list[Row]:
    """(number, the form to its report or None, start, end, commands), the latest first."""
    return [(span.number, (link or {}).get(span.number), when(span.started),
             when(span.ended) if span.ended else w.sessao_atual, span.commands)
            for span in reversed(spans)]


def sessions_head(w: ReportWords, counts: bool) -> list[str]:
    return [w.label("sessao"), w.label("inicio"), w.label("fim"),
            *([w.label("comandos")] if counts else [])]
