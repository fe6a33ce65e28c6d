"""The rule tables, loaded once with every typed piece built.

companion.tables.files reads tables/*.yaml and builds the typed pieces declared so far; the modules
that read a part of a file declare its piece (companion.tables.rulebook.piece) when imported. This
module imports them (the engine's procedures, through companion.engine; the sentence
templates', through the parser; the pages') so that `load_rules` builds them all, then checks
what tables/paginas.yaml names against the other files, and the sheet fields the sentences
name against the ones the engine keeps, and the conditions the table rows note (each described
one way). The shells (cli, session, server…)
load tables here. The pieces of the layers above this one (the report's tables/relatorio.yaml,
the voice's tables/voz.yaml) are declared when companion.cli imports their modules, before any
action loads the rules, so every entry point checks every piece at start.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

import companion.engine  # noqa: F401  (declares every procedure's pieces)
from companion.rules import labels, pages
from companion.commands.sentences import SentenceFile
from companion.engine.procedures.conditions import condition_notes
from companion.engine.procedures.party import FIELDS
from companion.tables.errors import TableError
from companion.tables.rulebook import build_pieces
from companion.tables.files import Tables, load_tables


def load_rules(directory: Path | str | None = None) -> Tables:
    """Every tables/*.yaml (or $COMPANION_TABLES/*.yaml, or `directory`), each declared piece
    built; a TableError names the file and the key."""
    return _checked(load_tables(directory))


def rules_from(shipped: Tables, files: Mapping[str, Any]) -> Tables:
    """These tables with `files` in place of theirs (the GM's own rules merged over the
    shipped ones, companion.rules.overlay), every piece built and checked as at load: the one
    validator; a TableError names the file and the key."""
    built = replace(shipped, files=dict(files), pieces=build_pieces(files, shipped.narration),
                    narrator=shipped.narration)
    return _checked(built)


def _checked(tables: Tables) -> Tables:
    """The checks across files, after each piece was built."""
    pages.load(tables)
    labels.page_labels(tables)  # the pages' own words (tables/rotulos_paginas.yaml)
    _check_sheet_fields(tables)
    condition_notes(tables)  # a condition two rows describe differently is refused now
    return tables


def _check_sheet_fields(tables: Tables) -> None:
    """Every sheet field the sentences name (frases.yaml `mesa.atributos`, the fields the parser
    accepts) is one the engine keeps on a character (party.FIELDS)."""
    unknown = [key for key in tables.piece(SentenceFile).mesa.atributos if key not in FIELDS]
    if unknown:
        raise TableError(tables.narration.render("tabelas.campo_da_ficha", {
            "campo": unknown[0], "campos": list(FIELDS)}))
