"""The report's refusals, and the words it says where no campaign's tables are at hand.

Reading a campaign file, a session number or a stored state comes before any campaign's tables
(the campaign is what is being read), and the export and the report's own words are checked
without them. Those texts are tables/narracao/relatorio.yaml of the tables folder in use
($COMPANION_TABLES, or the program's own tables/), compiled alone: it needs no campaign and no
rules, and is read once, on the first refusal.
"""
from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import yaml

from companion.tables.errors import CompanionError
from companion.tables.files import DEFAULT_DIR
from companion.tables.narration import FOLDER, LOADER, Narrator, compile_templates

FILE = "relatorio"  # tables/narracao/relatorio.yaml


class ReportError(CompanionError):
    """The report cannot be made as asked (no such session, no such player, no log)."""


def narration() -> Narrator:
    """tables/narracao/relatorio.yaml of the tables folder in use, compiled alone."""
    return _compiled(Path(os.environ.get("COMPANION_TABLES") or DEFAULT_DIR))


@cache
def _compiled(folder: Path) -> Narrator:
    with (folder / FOLDER / f"{FILE}.yaml").open(encoding="utf-8") as handle:
        return compile_templates({FILE: yaml.load(handle, Loader=LOADER) or {}})


__all__ = ["ReportError", "narration"]
