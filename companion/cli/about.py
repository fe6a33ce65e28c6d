"""`mesa --version` and `mesa atualizar`: which Mesa is installed, with which extras, and what
updating a zip install means (tables/narracao/instalacao.yaml)."""
from __future__ import annotations

import importlib.util

from companion.tables import places
from companion.tables.narration import Narrator

EXTRA_MODULES = {"voz": "vosk", "fala": "piper"}


def version() -> str:
    """The installed distribution's version; a checkout's pyproject.toml when not installed."""
    return places.release()


def has_extra(extra: str) -> bool:
    """Whether the extra's package is installed (found, not imported: no start-up cost)."""
    return importlib.util.find_spec(EXTRA_MODULES[extra]) is not None


def version_line(words: Narrator) -> str:
    there, missing = (words.render("instalacao.instalada", {}),
                      words.render("instalacao.nao_instalada", {}))
    said = {extra: there if has_extra(extra) else missing for extra in EXTRA_MODULES}
    return words.render("instalacao.versao", {"versao": version(), **said})


def update_line(words: Narrator) -> str:
    return words.render("instalacao.atualizar", {"versao": version()})
