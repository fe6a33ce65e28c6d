"""The rule tables, loaded once with every schema checked.

companion.tables reads and checks tables/*.yaml against the schemas registered so far; the
modules that own a file register its schema when imported. This module imports them (the
engine's procedures, through companion.engine; the sentence templates', through the parser;
the pages') so that `load_rules` checks them all, then checks what tables/paginas.yaml names
against the other files. The shells (cli, session, server…) load tables here.
"""
from __future__ import annotations

from pathlib import Path

import companion.commands.parse  # noqa: F401  (registers tables/frases.yaml's schema)
import companion.engine  # noqa: F401  (registers every procedure's schemas)
from companion import pages
from companion.tables import Tables, load_tables


def load_rules(directory: Path | str | None = None) -> Tables:
    """Every tables/*.yaml (or $COMPANION_TABLES/*.yaml, or `directory`), each registered
    schema checked; a TableError names the file and the key."""
    tables = load_tables(directory)
    pages.load(tables)
    return tables
