"""Charts drawn without a browser or a library: where each bar, line, dot and label goes.

Each function gives a `Chart`: its name (`data-grafico`, for tests), title (for screen
readers), height and shapes in drawing order, every coordinate already written as the SVG
wants it. web/templates/relatorio/grafico.html writes it as one inline `<svg>` with
presentation attributes only — no style attributes, so the page's Content-Security-Policy
(style-src 'self') never blocks it and a printed page keeps it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

WIDTH = 480
INK, MUTED, GRID = "#1d2330", "#5b6475", "#c9ced8"
PALETTE = ("#2f6db5", "#c2571a", "#2e8b57", "#8a4fb8", "#b8860b", "#b03a48")
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 30, 46


@dataclass(frozen=True)
class Text:
    x: str
    y: str
    text: str
    size: int = 11
    anchor: str = "middle"
    fill: str = MUTED
    kind: str = "text"


@dataclass(frozen=True)
class Line:
    """A straight line: a grid line, or the dashed line of what a fair die would give."""

    x1: str
    y1: str
    x2: str
    y2: str
    stroke: str = GRID
    width: str = "1"
    css: str = ""
    dash: str = ""
    kind: str = "line"


@dataclass(frozen=True)
class Bar:
    x: str
    y: str
    width: str
    height: str
    tip: str  # what a pointer over it shows
    fill: str = PALETTE[0]
    kind: str = "bar"


@dataclass(frozen=True)
class Trace:
    """A line through points ('x,y x,y …')."""

    points: str
    stroke: str
    width: str
    kind: str = "trace"


@dataclass(frozen=True)
class Dot:
    cx: str
    cy: str
    fill: str
    tip: str
    kind: str = "dot"


@dataclass(frozen=True)
class Swatch:
    """A legend's colour sample."""

    x: int
    y: int
    fill: str
    kind: str = "swatch"


Shape = Union[Text, Line, Bar, Trace, Dot, Swatch]


@dataclass(frozen=True)
class Chart:
    name: str
    title: str
    height: int
    shapes: tuple[Shape, ...]
    width: int = WIDTH
    left: int = LEFT
    ink: str = INK


def _at(value: float) -> str:
    """A coordinate as the SVG writes it: one decimal."""
    return f"{value:.1f}"


def _number(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return text.replace(".", ",")


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "middle",
          fill: str = MUTED) -> Text:
    return Text(_at(x), _at(y), text, size, anchor, fill)


def _axis(height: int, top_value: float) -> list[Shape]:
    """Horizontal grid lines with their values on the left (whole numbers when small)."""
    ticks = int(top_value) if top_value <= 5 and float(top_value).is_integer() else 4
    bottom = height - BOTTOM
    parts: list[Shape] = []
    for step in range(ticks + 1):
        value = top_value * step / ticks
        y = bottom - (bottom - TOP) * step / ticks
        parts.append(Line(str(LEFT), _at(y), str(WIDTH - RIGHT), _at(y)))
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
         height: int = 240) -> Chart:
    """Vertical bars, one per (label, value); an optional dashed line at `expected`."""
    top = _nice_top(max([v for _, v in items] + [expected or 0]))
    parts = _axis(height, top)
    bottom = height - BOTTOM
    span = (WIDTH - LEFT - RIGHT) / max(1, len(items))
    width = max(2.0, span * 0.7)
    for index, (label, value) in enumerate(items):
        x = LEFT + span * index + (span - width) / 2
        tall = (bottom - TOP) * value / top
        parts.append(Bar(_at(x), _at(bottom - tall), _at(width), _at(tall),
                         f"{label}: {_number(value)}"))
        parts.append(_text(x + width / 2, bottom + 14, label))
        if value and len(items) <= 12:
            parts.append(_text(x + width / 2, bottom - tall - 4, _number(value), fill=INK))
    if expected is not None:
        y = bottom - (bottom - TOP) * expected / top
        parts.append(Line(str(LEFT), _at(y), str(WIDTH - RIGHT), _at(y), stroke=PALETTE[1],
                          width="2", css="esperado", dash="6 4"))
        parts.append(_text(WIDTH - RIGHT, height - 8,
                           f"- - - {expected_label}: {_number(expected)}", anchor="end",
                           fill=PALETTE[1]))
    return Chart(name, title, height, tuple(parts))


def lines(name: str, title: str, labels: Sequence[str],
          series: Sequence[tuple[str, Sequence[float]]], note: str = "",
          height: int = 260) -> Chart:
    """One line per series over the same x labels, with a legend."""
    top = _nice_top(max([v for _, values in series for v in values] + [0]))
    parts = _axis(height, top)
    bottom = height - BOTTOM
    step = (WIDTH - LEFT - RIGHT) / max(1, len(labels) - 1)
    for index, label in enumerate(labels):
        parts.append(_text(LEFT + step * index, bottom + 14, label))
    for number, (label, values) in enumerate(series):
        color = PALETTE[number % len(PALETTE)]
        heights = [bottom - (bottom - TOP) * v / top for v in values]
        parts.append(Trace(" ".join(f"{_at(LEFT + step * i)},{_at(y)}"
                                    for i, y in enumerate(heights)), color, "2.5"))
        parts += [Dot(_at(LEFT + step * i), _at(y), color,
                      f"{label} — {labels[i]}: {_number(v)}")
                  for i, (y, v) in enumerate(zip(heights, values))]
        x = LEFT + number * 110
        parts.append(Swatch(x, height - 16, color))
        parts.append(_text(x + 16, height - 11, label, anchor="start", fill=INK))
    if note:
        parts.append(_text(WIDTH - RIGHT, 18, note, anchor="end"))
    return Chart(name, title, height, tuple(parts))


def steps(name: str, title: str, labels: Sequence[str], rows: Sequence[int],
          row_names: Sequence[str], note: str = "", height: int = 220) -> Chart:
    """A stepped line over rows 1..len(row_names) (the weather row, round by round)."""
    count = len(row_names)
    parts: list[Shape] = []
    bottom, left = height - BOTTOM, LEFT + 120
    span = (bottom - TOP) / max(1, count - 1)
    for row in range(1, count + 1):
        y = bottom - span * (row - 1)
        parts.append(Line(str(left), _at(y), str(WIDTH - RIGHT), _at(y)))
        parts.append(_text(left - 6, y + 4, f"{row} {row_names[row - 1][:20]}".strip(),
                           size=10, anchor="end"))
    step = (WIDTH - RIGHT - left) / max(1, len(rows))
    points: list[str] = []
    for index, row in enumerate(rows):
        y = bottom - span * (row - 1)
        points += [f"{_at(left + step * index)},{_at(y)}",
                   f"{_at(left + step * (index + 1))},{_at(y)}"]
        if len(rows) <= 24 or index % max(1, len(rows) // 12) == 0:
            parts.append(_text(left + step * (index + 0.5), bottom + 14, labels[index],
                               size=10))
    if points:
        parts.append(Trace(" ".join(points), PALETTE[0], "3"))
    if note:
        parts.append(_text(WIDTH - RIGHT, height - 8, note, anchor="end"))
    return Chart(name, title, height, tuple(parts))
