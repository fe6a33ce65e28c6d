"""What the pages' JavaScript writes by itself (tables/rotulos_paginas.yaml), checked at load.

The server puts `page_labels(tables)` inside each page it serves (a JSON data block, read by
web/static/js/pages.js `label`), so the words are there from the first paint, before any
connection, with no token: the connection's status, the "Agora" board's and the sheets' labels,
the prompt cards, the GM's notices, the Regras screen, the voice. With them go the sheet's
field names (tables/personagem.yaml `rotulos.campos`, which the events say too) and what the
sheets highlight (`destaques`), so the pages repeat neither. Words only: a change here is no
change of the rules (companion.rules.version.WORDING).

The words written in the pages themselves (web/templates/mestre.html, jogador.html, mesa.html:
titles, buttons, what shows while the table loads) are the file's `html` sections; a page says
each by name, `rotulo("section.key")` (`page_words`), a `textos` word too when it is the one
the scripts write there later. They are not in the data block: the page already shows them.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Mapping

from companion.engine.procedures.party import SheetLabels
from companion.tables.errors import TableError
from companion.tables.files import Tables
from companion.tables.rulebook import piece

FILE = "rotulos_paginas"
# a label's marks: {name} only; any other brace is a mistake in the file
_MARK = re.compile(r"\{\w+\}")


@dataclass(frozen=True)
class Highlights:
    """What the sheets show as low: sanity at or below `sanidade_ate`, HP at or below the
    maximum divided by `pv_fracao` (rounded up)."""

    sanidade_ate: int
    pv_fracao: int


@piece(FILE)
@dataclass(frozen=True)
class PageLabels:
    """tables/rotulos_paginas.yaml as written: the texts by section and key, the highlights."""

    textos: Mapping[str, Mapping[str, str]]
    html: Mapping[str, Mapping[str, str]]
    destaques: Highlights


def page_labels(tables: Tables) -> dict[str, Any]:
    """What a served page carries, {"textos", "destaques", "campos"}: built and checked once
    per load of the rules (companion.rules.loader checks it at load), then kept with them."""
    return tables.derived(_build)


def _build(tables: Tables) -> dict[str, Any]:
    raw = tables.piece(PageLabels)
    for section, texts in raw.textos.items():
        for key, text in texts.items():
            if not text.strip() or "{" in _MARK.sub("", text) or "}" in _MARK.sub("", text):
                raise TableError(tables.narration.render("tabelas.rotulo_invalido", {
                    "onde": f"{section}.{key}", "texto": text}))
    for section, texts in raw.html.items():
        if section in raw.textos:
            raise TableError(tables.narration.render("tabelas.rotulo_secao_repetida", {
                "secao": section}))
        for key, text in texts.items():
            if not text.strip() or "{" in text or "}" in text:
                raise TableError(tables.narration.render("tabelas.rotulo_html_invalido", {
                    "onde": f"{section}.{key}", "texto": text}))
    for key, value in asdict(raw.destaques).items():
        if isinstance(value, bool) or value < 1:
            raise TableError(tables.narration.render("tabelas.destaque_invalido", {
                "chave": key, "valor": value}))
    return {
        "textos": {section: dict(texts) for section, texts in raw.textos.items()},
        "destaques": asdict(raw.destaques),
        "campos": dict(tables.piece(SheetLabels).campos),
    }



def page_words(tables: Tables) -> dict[str, str]:
    """Every word a page template may say, by "section.key": the `html` sections and the
    scripts' `textos` (checked at load with page_labels, so a section is in one or the other)."""
    return tables.derived(_words)


def _words(tables: Tables) -> dict[str, str]:
    page_labels(tables)  # checked
    raw = tables.piece(PageLabels)
    return {f"{section}.{key}": text for part in (raw.textos, raw.html)
            for section, texts in part.items() for key, text in texts.items()}
