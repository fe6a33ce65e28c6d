"""Charts as plain inline SVG text, drawn without a browser or a library.

Each function returns one `<svg>` element (role="img", a <title> for screen readers, a
`data-grafico` name for tests) with presentation attributes only — no style attributes, so the
page's Content-Security-Policy (style-src 'self') never blocks it and a printed page keeps it.
"""
from __future__ import annotations

from html import escape
from typing import Sequence

WIDTH = 480
INK, MUTED, GRID = "#1d2330", "#5b6475", "#c9ced8"
PALETTE = ("#2f6db5", "#c2571a", "#2e8b57", "#8a4fb8", "#b8860b", "#b03a48")
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 30, 46


def _number(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return text.replace(".", ",")


def _open(name: str, title: str, height: int) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" class="grafico" data-grafico="{name}" '
            f'viewBox="0 0 {WIDTH} {height}" width="100%" role="img" '
            f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
            f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
            f'<text x="{LEFT}" y="18" font-size="14" font-weight="bold" fill="{INK}" '
            f'font-family="sans-serif">{escape(title)}</text>']


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "middle",
          fill: str = MUTED) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}" font-family="sans-serif">{escape(text)}</text>')


def _axis(height: int, top_value: float) -> list[str]:
    """Horizontal grid lines with their values on the left (whole numbers when small)."""
    ticks = int(top_value) if top_value <= 5 and float(top_value).is_integer() else 4
    bottom = height - BOTTOM
    parts = []
    for step in range(ticks + 1):
        value = top_value * step / ticks
        y = bottom - (bottom - TOP) * step / ticks
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                     f'stroke="{GRID}" stroke-width="1"/>')
        parts.append(_text(LEFT - 6, y + 4, _number(value), anchor="end"))
    return parts


def _nice_top(value: float) -> float:
    if value <= 0:
        return 1.0
    for top in (1, 2, 4, 5, 8, 10, 12, 16, 20, 25, 40, 50, 80, 100):
        if value <= top:
            return float(top)
    magnitude = 10 ** (len(str(int(value))) - 1)
    return float(-(-value // magnitude) * magnitude)


def bars(name: str, title: str, items: Sequence[tuple[str, float]],
         expected: float | None = None, expected_label: str = "",
         height: int = 240) -> str:
    """Vertical bars, one per (label, value); an optional dashed line at `expected`."""
    top = _nice_top(max([v for _, v in items] + [expected or 0]))
    parts = _open(name, title, height) + _axis(height, top)
    bottom = height - BOTTOM
    span = (WIDTH - LEFT - RIGHT) / max(1, len(items))
    width = max(2.0, span * 0.7)
    for index, (label, value) in enumerate(items):
        x = LEFT + span * index + (span - width) / 2
        tall = (bottom - TOP) * value / top
        parts.append(f'<rect class="barra" x="{x:.1f}" y="{bottom - tall:.1f}" '
                     f'width="{width:.1f}" height="{tall:.1f}" fill="{PALETTE[0]}">'
                     f'<title>{escape(label)}: {_number(value)}</title></rect>')
        parts.append(_text(x + width / 2, bottom + 14, label))
        if value and len(items) <= 12:
            parts.append(_text(x + width / 2, bottom - tall - 4, _number(value), fill=INK))
    if expected is not None:
        y = bottom - (bottom - TOP) * expected / top
        parts.append(f'<line class="esperado" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" '
                     f'y2="{y:.1f}" stroke="{PALETTE[1]}" stroke-width="2" '
                     f'stroke-dasharray="6 4"/>')
        parts.append(_text(WIDTH - RIGHT, height - 8,
                           f"- - - {expected_label}: {_number(expected)}", anchor="end",
                           fill=PALETTE[1]))
    parts.append("</svg>")
    return "".join(parts)


def lines(name: str, title: str, labels: Sequence[str],
          series: Sequence[tuple[str, Sequence[float]]], note: str = "",
          height: int = 260) -> str:
    """One line per series over the same x labels, with a legend."""
    top = _nice_top(max([v for _, values in series for v in values] + [0]))
    parts = _open(name, title, height) + _axis(height, top)
    bottom = height - BOTTOM
    step = (WIDTH - LEFT - RIGHT) / max(1, len(labels) - 1)
    for index, label in enumerate(labels):
        parts.append(_text(LEFT + step * index, bottom + 14, label))
    for number, (label, values) in enumerate(series):
        color = PALETTE[number % len(PALETTE)]
        points = " ".join(f"{LEFT + step * i:.1f},{bottom - (bottom - TOP) * v / top:.1f}"
                          for i, v in enumerate(values))
        parts.append(f'<polyline class="linha" points="{points}" fill="none" '
                     f'stroke="{color}" stroke-width="2.5"/>')
        for i, v in enumerate(values):
            parts.append(f'<circle cx="{LEFT + step * i:.1f}" '
                         f'cy="{bottom - (bottom - TOP) * v / top:.1f}" r="3.5" fill="{color}">'
                         f'<title>{escape(label)} — {escape(labels[i])}: {_number(v)}</title>'
                         f'</circle>')
        x = LEFT + number * 110
        parts.append(f'<rect x="{x}" y="{height - 16}" width="12" height="4" fill="{color}"/>')
        parts.append(_text(x + 16, height - 11, label, anchor="start", fill=INK))
    if note:
        parts.append(_text(WIDTH - RIGHT, 18, note, anchor="end"))
    parts.append("</svg>")
    return "".join(parts)


def steps(name: str, title: str, labels: Sequence[str], rows: Sequence[int],
          row_names: Sequence[str], note: str = "", height: int = 220) -> str:
    """A stepped line over rows 1..len(row_names) (the weather row, round by round)."""
    count = len(row_names)
    parts = _open(name, title, height)
    bottom, left = height - BOTTOM, LEFT + 120
    span = (bottom - TOP) / max(1, count - 1)
    for row in range(1, count + 1):
        y = bottom - span * (row - 1)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                     f'stroke="{GRID}" stroke-width="1"/>')
        name = row_names[row - 1][:20]
        parts.append(_text(left - 6, y + 4, f"{row} {name}".strip(), size=10, anchor="end"))
    step = (WIDTH - RIGHT - left) / max(1, len(rows))
    points: list[str] = []
    for index, row in enumerate(rows):
        y = bottom - span * (row - 1)
        points += [f"{left + step * index:.1f},{y:.1f}", f"{left + step * (index + 1):.1f},{y:.1f}"]
        if len(rows) <= 24 or index % max(1, len(rows) // 12) == 0:
            parts.append(_text(left + step * (index + 0.5), bottom + 14, labels[index], size=10))
    if points:
        parts.append(f'<polyline class="linha" points="{" ".join(points)}" fill="none" '
                     f'stroke="{PALETTE[0]}" stroke-width="3"/>')
    if note:
        parts.append(_text(WIDTH - RIGHT, height - 8, note, anchor="end"))
    parts.append("</svg>")
    return "".join(parts)
