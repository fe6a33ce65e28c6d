"""Reading a typed table's rows: the row a rolled total falls on, and a row's text."""
from __future__ import annotations

from typing import Any, Mapping

from companion.tables.errors import CommandRejected


def pick_row(rows: Mapping[Any, Any], value: int) -> Any:
    """The row of a table keyed by '3', '1-5' or '14+' that contains value."""
    for key, row in rows.items():
        text = str(key).strip()
        if text.endswith("+") and value >= int(text[:-1]):
            return row
        if "-" in text[1:]:
            low, high = text.split("-", 1)
            if int(low) <= value <= int(high):
                return row
        elif text.lstrip("-").isdigit() and int(text) == value:
            return row
    # said by its code, rendered at apply's boundary (the view reads only rows the tables cover)
    raise CommandRejected.because("conferencia.sem_linha", resultado=value)


def row_text(row: Any) -> str:
    """A typed table row is a text or a row with `texto`."""
    return row if isinstance(row, str) else str(row.texto)
