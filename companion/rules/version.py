"""The rules in force, as the campaign keeps them: which files of tables/ are rules, their
fingerprint, and what changed between two versions in a person's words.

"Rules" are the files whose typed pieces the engine plays by; the wording files (narration,
pages, sentences, voice, report) are not: a reworded sentence reads reworded in the past too,
and is no change of the rules. A campaign stores each distinct version once (its files as
JSON) and each command names the version it ran under.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Mapping

import yaml

from companion.tables.files import LOADER, Tables

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

WORDING = frozenset({"paginas", "rotulos_paginas", "frases", "voz", "fala", "relatorio", "pesos",
                     "regras_tela"})  # words only
MAX_SHOWN = 25  # changes told one by one; past that, one line says how many more
# The path of a change of a whole file: stored as it is in the campaign's rule changes (and
# read back by it), so it is data and not a text to translate.
WHOLE_FILE = "(arquivo inteiro)"
ORIGIN_FILES = "tables"  # a change found in the files of tables/ (a later issue adds the GM's)


@dataclass(frozen=True)
class RuleChange:
    """One value that differs between two versions: the file, the key path, before and after
    (None where the key did not exist), and where the change came from."""

    arquivo: str
    chave: str
    antes: Any
    depois: Any
    origem: str = ORIGIN_FILES

    def data(self) -> dict[str, Any]:
        return {"arquivo": f"{self.arquivo}.yaml", "chave": self.chave, "antes": self.antes,
                "depois": self.depois, "origem": self.origem}


def rule_files(tables: Tables) -> dict[str, Any]:
    """The rules files of these tables, by stem."""
    return {stem: data for stem, data in tables.files.items() if stem not in WORDING}


def canonical(files: Mapping[str, Any]) -> str:
    """The rules as stored: YAML with sorted keys (the same rules, the same text; YAML, not
    JSON, so numeric keys such as a table's rows come back as numbers)."""
    return yaml.dump(dict(files), Dumper=DUMPER, allow_unicode=True, sort_keys=True,
                     default_flow_style=True, width=1 << 30)


def rules_text(tables: Tables) -> str:
    """These tables' rules as stored (canonical), computed once per Tables."""
    return tables.derived(_rules_text)


def tables_fingerprint(tables: Tables) -> str:
    """A fingerprint of every file of these tables, the wording too, computed once."""
    return tables.derived(_tables_fingerprint)


def _rules_text(tables: Tables) -> str:
    return canonical(rule_files(tables))


def _tables_fingerprint(tables: Tables) -> str:
    return fingerprint(canonical(tables.files))


def read(text: str) -> dict[str, Any]:
    """Stored rules back as files by stem."""
    return yaml.load(text, Loader=LOADER) or {}


def fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[RuleChange]:
    """Every value that differs from `before` to `after`, file by file, key by key."""
    found: list[RuleChange] = []
    for stem in sorted(set(before) | set(after)):
        _walk(stem, "", before.get(stem), after.get(stem), found)
    return found


def _walk(stem: str, path: str, old: Any, new: Any, found: list[RuleChange]) -> None:
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            _walk(stem, _join(path, key), old.get(key), new.get(key), found)
        return
    if (isinstance(old, list) and isinstance(new, list) and len(old) == len(new)
            and any(isinstance(item, (dict, list)) for item in old + new)):
        for index, (a, b) in enumerate(zip(old, new), start=1):
            _walk(stem, _join(path, index), a, b, found)
        return
    found.append(RuleChange(stem, path or WHOLE_FILE, _plain(old), _plain(new)))


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _plain(value: Any) -> Any:
    """A value as JSON can keep it (the event's data)."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))
