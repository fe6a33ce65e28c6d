"""A copy of tables/ with one change, loaded as the companion loads it (issue 8: every value
the engine uses comes from the typed rules, so changing it in the data changes behaviour);
and characters with the shipped sheet's defaults."""
from __future__ import annotations

import shutil
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.engine.model import Character
from companion.engine.procedures.party import CharacterDefaults
from companion.rules.loader import load_rules
from companion.tables.files import DEFAULT_DIR, Tables


@lru_cache(maxsize=1)
def _shipped_defaults() -> CharacterDefaults:
    return load_rules().piece(CharacterDefaults)


def new_character(id: str, name: str, **changes: Any) -> Character:
    """A character as `personagem Nome` makes one (tables/personagem.yaml
    `personagem_padrao`), with `changes` on top."""
    return replace(_shipped_defaults().character(id, name), **changes)


def changed_rules(tmp_path: Path, file: str, old: str, new: str) -> Tables:
    """tables/ copied to tmp_path with `old` replaced by `new` (once) in `file`
    (a path inside tables/, e.g. 'clima.yaml' or 'narracao/clima.yaml')."""
    folder = tmp_path / "tables"
    if not folder.exists():
        shutil.copytree(DEFAULT_DIR, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{file}: {old!r} aparece {text.count(old)} vezes"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_rules(folder)
