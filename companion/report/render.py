"""The report as HTML: one page with the seed's form filled in, tables and inline SVG charts.

`page(report, tables, ...)` gives a whole document. Served by the companion it links its
stylesheet (/static/css/relatorio.css: the pages' CSP allows no inline style); as a standalone
file (`companion relatorio --saida`) the same stylesheet is written inside it, so the file opens
anywhere with nothing else.

The served page's links (another session, the downloads) are small forms that POST the viewer's
token (`Post`): a token in an address stays in the history, the address bar and the logs.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from companion.tables.narration import counted, number_text
from companion.report import charts
from companion.report.model import Count, Report
from companion.report.source import SessionSpan
from companion.report.words import ReportWords
from companion.tables import places
from companion.tables.files import Tables

STYLESHEET = places.program_folder("web") / "static" / "css" / "relatorio.css"


@dataclass(frozen=True)
class Post:
    """A link of the served report: a form posting these hidden fields to `action`."""

    action: str
    fields: tuple[tuple[str, str], ...]


def _e(value: Any) -> str:
    return escape(str(value))


def _post(target: Post, label: str) -> str:
    """A button that looks like a link and POSTs the target's fields (the CSP allows forms
    to this origin only)."""
    hidden = "".join(f"<input type=\"hidden\" name=\"{_e(name)}\" value=\"{_e(value)}\">"
                     for name, value in target.fields)
    return (f"<form class=\"ir\" method=\"post\" action=\"{_e(target.action)}\">{hidden}"
            f"<button type=\"submit\">{_e(label)}</button></form>")


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], css: str = "") -> str:
    cells = "".join(f"<th scope=\"col\">{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td data-rotulo=\"{_e(h)}\">{_e(c)}</td>"
                                    for h, c in zip(head, row)) + "</tr>" for row in rows)
    klass = f" class=\"{css}\"" if css else ""
    return f"<table{klass}><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def _section(key: str, title: str, body: str) -> str:
    return f"<section id=\"{key}\" class=\"bloco\"><h2>{_e(title)}</h2>{body}</section>"


def _empty(text: str) -> str:
    return f"<p class=\"vazio\">{_e(text)}</p>"


def _counts(counts: Sequence[Count]) -> str:
    return ", ".join(f"{c.amount} {c.name}" for c in counts)


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


# ---------------------------------------------------------------- sections

def _summary(report: Report, w: ReportWords) -> str:
    span = report.span
    rows = [(w.label("inicio"), when(span.started)),
            (w.label("fim"), when(span.ended) if span.ended else w.label("em_jogo")),
            (w.label("onde_comecou"), f"{report.start.clock} — {report.start.where}"),
            (w.label("onde_parou"), f"{report.end.clock} — {report.end.where}")]
    if report.gm:
        rows += [(w.label("comandos"), span.commands), (w.label("desfeitos"), span.undone)]
    body = "".join(f"<tr><th scope=\"row\">{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows)
    return _section("resumo", w.section("resumo"), f"<table class=\"chave\">{body}</table>")


def _form(report: Report, w: ReportWords) -> str:
    """The seed's form: one block per region, then the dice per type."""
    nothing = w.label("nada")
    blocks = []
    for form in report.forms:
        rows = [(w.label("criatura"), w.label("derrotada"), form.defeated),
                (w.label("tesouro"), w.label("tesouro_qtd"), form.treasure),
                (w.label("item"), w.label("item_qtd"), form.items)]
        lines = [f"<tr><th scope=\"row\">{_e(w.label('regiao'))}</th>"
                 f"<td colspan=\"2\" class=\"regiao\">{_e(form.region)}</td></tr>"]
        for kind, amount, counts in rows:
            listed = counts or (Count(nothing, 0),)
            for count in listed:
                shown = count.amount if counts else nothing
                lines.append(f"<tr><th scope=\"row\">{_e(kind)}</th><td>{_e(count.name)}</td>"
                             f"<td class=\"num\" data-rotulo=\"{_e(amount)}\">{_e(shown)}</td>"
                             "</tr>")
        blocks.append(f"<table class=\"ficha\" data-regiao=\"{_e(form.region)}\">"
                      f"{''.join(lines)}</table>")
    dice_rows = [(d.kind, d.dice) for d in report.dice]
    dice = _table([w.label("dado"), w.label("dados_qtd")], dice_rows, "dados") if dice_rows \
        else _empty(w.empty("dados"))
    nothing_noted = w.empty("ficha" if report.viewer == "gm" else "ficha_jogador")
    body = ("".join(blocks) or _empty(nothing_noted)) + \
        f"<h3>{_e(w.section('dados'))}</h3>{dice}"
    return _section("ficha", w.section("ficha"), body)


def _dice_charts(report: Report, w: ReportWords) -> str:
    if not report.dice:
        return ""
    parts = [charts.bars("dados-por-tipo", w.section("dados"),
                         [(d.kind, d.dice) for d in report.dice])]
    biggest = w.faces_no_grafico
    for die in report.dice:
        seen = sum(die.faces)  # the dice whose face is known (the companion's own rolls)
        if not die.sides or die.sides > biggest or seen == 0:
            continue
        parts.append(charts.bars(
            f"faces-{die.kind}", f"{die.kind}: {w.label('faces')} ({seen} "
            f"{w.label('vezes')})", [(str(i + 1), n) for i, n in enumerate(die.faces)],
            expected=seen / die.sides, expected_label=w.label("esperado"), height=200))
    return _section("graficos-dados", w.section("graficos_dados"),
                    "<div class=\"graficos\">" + "".join(parts) + "</div>")


def _travel(report: Report, w: ReportWords) -> str:
    if not (report.rounds or report.dungeon_turns or report.days_ended):
        return _section("viagem", w.section("viagem"), _empty(w.empty("viagem")))
    rows = [(w.label("dias"), f"{report.start.day} → {report.end.day}"),
            (w.label("dias_completos"), report.days_ended),
            (w.label("rodadas"), report.rounds),
            (w.label("turnos"), report.dungeon_turns),
            (w.label("hexes"), number_text(report.hexes)),
            (w.label("terrenos"), ", ".join(
                f"{c.name} ({counted(c.amount, w.label('rodada').lower())})"
                for c in report.terrains) or w.label("nada"))]
    body = "".join(f"<tr><th scope=\"row\">{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows)
    return _section("viagem", w.section("viagem"), f"<table class=\"chave\">{body}</table>")


def _weather(report: Report, w: ReportWords) -> str:
    if not report.weather:
        return _section("clima", w.section("clima"), _empty(w.empty("clima")))
    labels = [f"{p.day}.{p.round}" if p.round else str(p.day) for p in report.weather]
    chart = charts.steps("clima", w.section("clima"), labels, [p.row for p in report.weather],
                         report.weather_rows, note=w.label("linha_clima"))
    by_day: dict[int, list[str]] = {}
    for point in report.weather:
        texts = by_day.setdefault(point.day, [])
        if not texts or texts[-1] != point.text:
            texts.append(point.text)
    table = _table([w.label("dia"), w.label("clima")],
                   [(day, " → ".join(texts)) for day, texts in by_day.items()])
    return _section("clima", w.section("clima"), chart + table)


def _encounters(report: Report, w: ReportWords) -> str:
    if not report.encounters:
        return _section("encontros", w.section("encontros"), _empty(w.empty("encontros")))
    rows = [(e.day, e.round or "", e.where, e.what) for e in report.encounters]
    return _section("encontros", w.section("encontros"), _table(
        [w.label("dia"), w.label("rodada"), w.label("onde"), w.label("o_que")], rows))


def _supplies(report: Report, w: ReportWords) -> str:
    rows = [(c.name, c.spent[0], c.spent[1], c.spent[2]) for c in report.characters]
    total = tuple(sum(c.spent[i] for c in report.characters) for i in range(3))
    head = [w.label("personagem"), w.label("comida"), w.label("agua"), w.label("municao")]
    body = _table(head, rows + ([("Total", *total)] if len(rows) > 1 else []), "provisoes") \
        if rows else _empty(w.empty("personagens"))
    body += f"<p><b>{_e(w.label('luzes'))}:</b> {_e(_counts(report.lights) or w.label('nada'))}</p>"
    if len(report.supplies) >= 2:
        series = [(w.label("comida"), [p.food for p in report.supplies]),
                  (w.label("agua"), [p.water for p in report.supplies]),
                  (w.label("municao"), [p.ammo for p in report.supplies])]
        body += charts.lines("provisoes", w.section("provisoes"),
                             [p.label for p in report.supplies], series,
                             note=w.label("total_grupo"))
    return _section("provisoes", w.section("provisoes"), body)


def _sentences(texts: Sequence[str]) -> str:
    """Whole sentences one after the other ('Ana falhou… Tabela J…'), never '.;'."""
    return " ".join(text if text.rstrip().endswith((".", "!", "?")) else text.rstrip() + "."
                    for text in texts)


def _characters(report: Report, w: ReportWords) -> str:
    if not report.characters:
        return _section("personagens", w.section("personagens"), _empty(w.empty("personagens")))
    rows = []
    for c in report.characters:
        hp = f"{c.hp[0]} → {c.hp[1]} / {c.hp[2]}"
        exhaustion = f"{c.exhaustion[0]} → {c.exhaustion[1]}" + \
            (f" (máx. {c.exhaustion[2]})" if c.exhaustion[2] > c.exhaustion[1] else "")
        left = f"{c.left[0]} / {c.left[1]} / {c.left[2]}"
        marks = "; ".join([*c.afflictions, *c.conditions]) or w.label("nada")
        rows.append((c.name, hp, exhaustion, _sentences(c.panic) or w.label("nada"), marks,
                     left))
    head = [w.label("personagem"), w.label("pv"), w.label("exaustao"), w.label("panico"),
            w.label("aflicoes"),
            f"{w.label('comida')} / {w.label('agua')} / {w.label('municao')}"]
    return _section("personagens", w.section("personagens"), _table(head, rows, "personagens empilhada"))


def _chases(report: Report, w: ReportWords) -> str:
    if not report.chases:
        return _section("perseguicoes", w.section("perseguicoes"),
                        _empty(w.empty("perseguicoes")))
    rows = [(c.day, c.where, c.turns, c.outcome) for c in report.chases]
    return _section("perseguicoes", w.section("perseguicoes"), _table(
        [w.label("dia"), w.label("onde"), w.label("turnos_perseguicao"), w.label("resultado")],
        rows, "empilhada rotulada"))


def _voice(report: Report, w: ReportWords) -> str:
    if not report.utterances:
        return _section("voz", w.section("voz"), _empty(w.empty("voz")))
    yes, no = w.label("sim"), w.label("nao")
    rows = []
    for u in report.utterances:
        confidence = f"{round(u.confidence * 100)}%" if u.confidence is not None else ""
        accepted = "" if u.accepted is None else (yes if u.accepted else no)
        command = u.command + (f" (nº {u.n})" if u.n else "") + \
            (f" — {w.label('desfeito')}" if u.undone else "")
        rows.append((when(u.at), u.text, confidence, accepted, command, u.reason))
    return _section("voz", w.section("voz"), _table(
        [w.label("hora"), w.label("ouvido"), w.label("confianca"), w.label("aceito"),
         w.label("comando"), w.label("motivo")], rows, "voz empilhada"))


def _undone(report: Report, w: ReportWords) -> str:
    body = _table(["nº", w.label("comando")], report.undone) if report.undone \
        else _empty(w.empty("desfeitos"))
    return _section("desfeitos", w.section("desfeitos"), body)


def _gm_notes(report: Report, w: ReportWords) -> str:
    notes = report.gm_notes
    monsters = ", ".join(f"{m['nome']}" + (f" (sala {m['sala']})" if m.get("sala") else "")
                         for m in notes.get("monstros", [])) or w.label("nenhum")
    secrets = "".join(f"<li>{_e(s)}</li>" for s in notes.get("segredos", []))
    lost = w.label("sim") if notes.get("perdido") else w.label("nao")
    body = (f"<p><b>{_e(w.label('perdido'))}:</b> {_e(lost)}</p>"
            f"<p><b>{_e(w.label('monstros'))}:</b> {_e(monsters)}</p>"
            f"<p><b>{_e(w.label('segredos'))}:</b></p>"
            + (f"<ul>{secrets}</ul>" if secrets else _empty(w.label("nenhum"))))
    return _section("mestre", w.section("mestre"), body)


def _log(report: Report, w: ReportWords) -> str:
    if not report.log:
        return _section("registro", w.section("registro"), _empty(w.empty("registro")))
    items = []
    for event in report.log:
        marks = " desfeito" if event.get("desfeito") else ""
        secret = " segredo" if event["visibility"] != "public" else ""
        items.append(f"<li class=\"evento{marks}{secret}\" data-seq=\"{_e(event['seq'])}\">"
                     f"<span class=\"cmd\">{_e(event['texto_comando'])}</span> "
                     f"{_e(event['text'])}</li>")
    return _section("registro", w.section("registro"),
                    f"<details><summary>{_e(w.label('eventos').format(n=len(items)))}</summary><ol class=\"eventos\">"
                    f"{''.join(items)}</ol></details>")


def sessions_list(spans: Sequence[SessionSpan], tables: Tables,
                  link: Mapping[int, Post] | None = None, current: int | None = None,
                  counts: bool = True) -> str:
    """The campaign's sessions (number, start, end, commands), each linked to its report."""
    w = tables.piece(ReportWords)
    rows = []
    for span in reversed(spans):
        target = (link or {}).get(span.number)
        shown = _post(target, f"{w.label('ver')} {span.number}") if target \
            else _e(span.number)
        mark = " class=\"atual\"" if span.number == current else ""
        ended = when(span.ended) if span.ended else w.sessao_atual
        rows.append(f"<tr{mark} data-sessao=\"{span.number}\"><td>{shown}</td>"
                    f"<td>{_e(when(span.started))}</td><td>{_e(ended)}</td>"
                    + (f"<td class=\"num\">{span.commands}</td>" if counts else "") + "</tr>")
    head = "".join(f"<th scope=\"col\">{_e(h)}</th>" for h in
                   (w.label("sessao"), w.label("inicio"), w.label("fim"))
                   + ((w.label("comandos"),) if counts else ()))
    return _section("sessoes", w.sessoes,
                    f"<table class=\"sessoes\"><thead><tr>{head}</tr></thead>"
                    f"<tbody>{''.join(rows)}</tbody></table>")


def page(report: Report, tables: Tables, standalone: bool = True,
         downloads: Mapping[str, Post] | None = None, sessions_html: str = "") -> str:
    """The whole report document."""
    w = tables.piece(ReportWords)
    if report.gm:
        title = w.titulo.format(sessao=report.span.number)
    else:
        title = w.titulo_jogador.format(sessao=report.span.number,
                                                nome=report.viewer_name or "")
    style = f"<style>{STYLESHEET.read_text(encoding='utf-8')}</style>" if standalone else \
        "<link rel=\"stylesheet\" href=\"/static/css/relatorio.css\">"
    parts = [_summary(report, w), _form(report, w), _dice_charts(report, w),
             _travel(report, w), _weather(report, w)]
    if report.gm or report.encounters:
        parts.append(_encounters(report, w))
    parts += [_supplies(report, w), _characters(report, w), _chases(report, w)]
    if report.gm:
        parts += [_voice(report, w), _undone(report, w), _gm_notes(report, w)]
    parts.append(_log(report, w))
    if downloads:
        links = "".join(f"<li>{_post(target, w.label(key))}</li>"
                        for key, target in downloads.items())
        parts.append(_section("exportar", w.section("exportar"),
                              f"<ul class=\"baixar\">{links}</ul>"
                              f"<p class=\"dica\">{_e(w.label('imprimir'))}</p>"))
    who = "" if report.gm else \
        f"<p class=\"visao\">{_e(w.label('visao_jogador').format(nome=report.viewer_name))}</p>"
    return ("<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_e(title)} — Mesa</title>{style}</head>"
            f"<body class=\"relatorio\"><main><header><h1>{_e(title)}</h1>{who}</header>"
            f"{''.join(parts)}{sessions_html}"
            f"<footer>{_e(w.label('gerado'))}</footer></main></body></html>")
