"""The rule tables, loaded once with every typed piece built.

companion.tables reads tables/*.yaml and builds the typed pieces declared so far; the modules
that read a part of a file declare its piece (companion.rulebook.piece) when imported. This
module imports them (the engine's procedures, through companion.engine; the sentence
templates', through the parser; the pages') so that `load_rules` builds them all, then checks
what tables/paginas.yaml names against the other files. The shells (cli, session, server…)
load tables here. The pieces of the layers above this one (the report's tables/relatorio.yaml,
the voice's tables/voz.yaml) are declared when companion.cli imports their modules, before any
action loads the rules, so every entry point checks every piece at start.
"""
from __future__ import annotations

from pathlib import Path

import companion.commands.parse  # noqa: F401  (declares tables/frases.yaml's piece)
import companion.engine  # noqa: F401  (declares every procedure's pieces)
from companion import pages
from companion.tables import Tables, load_tables


def load_rules(directory: Path | str | None = None) -> Tables:
    """Every tables/*.yaml (or $COMPANION_TABLES/*.yaml, or `directory`), each declared piece
    built; a TableError names the file and the key."""
    tables = load_tables(directory)
    pages.load(tables)
    return tables
