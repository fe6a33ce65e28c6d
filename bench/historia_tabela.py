"""The table bench/historia.py prints: sizes per 1,000 commands, reopen and report times."""
from __future__ import annotations

import statistics
from typing import Any, Callable


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank (as bench/live.py)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]



# ---------------------------------------------------------------------------- the table

def per_thousand(built: dict[str, Any]) -> tuple[float, float]:
    """(MB per 1,000 commands over the whole campaign, MB the last 1,000 added)."""
    sizes = built["tamanhos"]
    count, size = sizes[-1]
    whole = size / count * 1000 / 1e6
    earlier = [(n, s) for n, s in sizes if n <= count - 1000]
    if not earlier:
        return whole, float("nan")
    n, s = earlier[-1]
    return whole, (size - s) / (count - n) * 1000 / 1e6


STATES = ("states", "snapshots")  # the stored states; before them, the pickled snapshots
EVENTS = ("events", "events_by_command")


def share(built: dict[str, Any], tables: tuple[str, ...]) -> float:
    """MB per 1,000 commands these tables (and indexes) of the file hold."""
    held = sum(built["tabelas"].get(name, 0) for name in tables)
    return held / built["comandos"] * 1000 / 1e6


def number(value: float | None, digits: int = 2) -> str:
    if value is None or value != value:
        return "—"
    return f"{value:.{digits}f}".replace(".", ",")


def thousands(value: int) -> str:
    """10.000, as a Brazilian reader writes it."""
    return f"{value:,}".replace(",", ".")


def table(results: dict[str, dict[str, Any]], has_before: bool, count: int,
          full_size: bool) -> str:
    """The printed table. The targets that speak of a 10,000-command campaign and a 2,000-command
    session are judged only when the campaign measured is that big (not with --curto)."""
    floor = results["chao"]["commits"]
    new, old = results["novo"], results.get("antes")
    lines: list[str] = []

    def add(label: str, unit: str, get: Callable[[dict[str, Any]], float],
            floor_value: float | None = None, target: str = "",
            met: Callable[[float], bool] | None = None, digits: int = 2) -> None:
        values = {"novo": get(new), "antes": get(old) if old else None}
        cells = []
        for name in ("antes", "novo"):
            value = values[name]
            shown = number(value, digits)
            if floor_value and value is not None:
                shown += f" ({number(value / floor_value, 1)}×)"
            cells.append(shown)
        ratio = number(values["novo"] / values["antes"], 2) + "×" if values["antes"] else "—"
        verdict = ""
        if met is not None and not full_size:
            verdict = " (só na campanha de 10.000)"
        elif met is not None:
            verdict = ": cumprida" if met(values["novo"]) else ": NÃO cumprida"
        lines.append(f"{label:50s} {unit:3s} {cells[0]:>15s} {cells[1]:>15s} {ratio:>8s}  "
                     f"{target}{verdict}")

    for q in (50, 99):
        add(f"comando (Session.run), p{q}", "ms",
            lambda r, q=q: pct(r["comandos"], q) * 1e3, pct(floor, q) * 1e3)
    for kind, what in (("tipica", "mistura típica"), ("segredos", "metade segredos")):
        last = f"no fim de {thousands(count)} ({what})"
        for q in (50, 99):
            add(f"comando {last}, p{q}", "ms",
                lambda r, q=q, kind=kind: pct(r[kind]["fim"], q) * 1e3, pct(floor, q) * 1e3)
    for kind, what in (("tipica", "mistura típica"),
                       ("segredos", f"{thousands(new['segredos']['segredos'])} segredos")):
        goal = dict(target="meta ≤ 1 MB", met=lambda v: v <= 1.0)
        add(f"arquivo por 1.000 comandos, {what}", "MB",
            lambda r, kind=kind: per_thousand(r[kind])[0], digits=3, **goal)
        add("  dos quais estados (antes: instantâneos)", "MB",
            lambda r, kind=kind: share(r[kind], STATES), digits=3)
        add("  dos quais eventos", "MB", lambda r, kind=kind: share(r[kind], EVENTS), digits=3)
        add("  os últimos 1.000", "MB",
            lambda r, kind=kind: per_thousand(r[kind])[1], digits=3, **goal)
    add("abrir um arquivo novo, vazio (Session.open)", "ms",
        lambda r: statistics.median(r["vazia"]) * 1e3, digits=1)
    add(f"reabrir {thousands(count)} comandos (Session.open)", "ms",
        lambda r: statistics.median(r["reabrir"]) * 1e3, digits=1)
    add("  além do arquivo vazio", "ms",
        lambda r: (statistics.median(r["reabrir"]) - statistics.median(r["vazia"])) * 1e3,
        target="meta < 50 ms", met=lambda v: v < 50, digits=1)
    span = new["relatorio_sessao"]
    add(f"relatório da sessão {span['sessao']} de {span['sessoes']} "
        f"({thousands(span['comandos'])} comandos)", "s",
        lambda r: statistics.median(r["relatorio"]), target="meta < 1 s",
        met=lambda v: v < 1.0)

    header = f"{'':50s} {'':3s} {'antes':>15s} {'novo':>15s} {'novo/antes':>8s}"
    floor_line = (f"chão: um commit durável no SQLite (WAL, synchronous=FULL), medido logo "
                  f"depois de cada comando: p50 {number(pct(floor, 50) * 1e3)} ms, "
                  f"p99 {number(pct(floor, 99) * 1e3)} ms; entre parênteses, × o chão "
                  "do mesmo percentil")
    taken = results["amostras"]
    lines.append(f"amostras por versão: comando, {taken['rodadas']} rodadas alternadas de "
                 f"{taken['por_rodada']} num arquivo novo; no fim, os últimos {taken['fim']} "
                 f"comandos de cada campanha (duráveis); reabrir, {taken['reabrir']} vezes "
                 f"(mediana); relatório, {taken['relatorio']} vez(es) depois de um aquecimento "
                 "(mediana)")
    note = "" if has_before else "\n(antes: — ; diga --antes CAMINHO de um checkout antigo)"
    return "\n".join([floor_line, header] + lines) + note
