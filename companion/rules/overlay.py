"""The GM's own rules of a campaign: only its differences from the shipped tables/.

The overrides mirror tables/: one top key per file (its name without .yaml), holding only the
keys that differ, nested as in that file (a torch of 2 turns is `casa: {luz: {tocha: {turnos:
2}}}`). A scalar differs by its key; a table's rows (a map keyed by row numbers or ranges) and
a list are kept whole; a region the GM added is kept whole (it is not in the shipped file). The
campaign's rules are the shipped tables with the overrides merged over them, built and checked
by the loader (companion.rules.loader.rules_from: the one validator). A value the GM never touched
follows the shipped default when the companion is updated; one the GM set stays; one whose key
an update removed is dropped when the campaign opens (`settle`), and the GM is told once.

A change (`patched`) is in the export's shape too: the keys it sets, a null to go back to the
shipped value (or to remove what the GM added, such as a region).
"""
from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

import yaml

from companion.rules import version
from companion.engine.model import State
from companion.engine.procedures.encounters import EncounterTables
from companion.engine.terrain import TerrainNames
from companion.tables.errors import TableError
from companion.tables.narration import Narrator
from companion.rules.loader import rules_from
from companion.tables.piece_lookup import typed_at
from companion.tables.files import LOADER, Tables

Overrides = dict[str, Any]

# what the GM may not change: how the commands are read and who may run them (the program's)
FIXED = frozenset({"comandos", "argumentos"})
ORIGIN_GM = "mestre"  # a change the GM made (the GM page, the API, `regras importar`)
ORIGIN_UNDO = "desfazer"  # a change undone
ORIGIN_UPDATE = "atualizacao"  # a GM value an update of the companion left without its key
ROW_KEY = re.compile(r"\d+(-\d+|\+)?")
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def editable(tables: Tables) -> list[str]:
    """The files whose values the GM may change: the rules files, but the program's own."""
    return [stem for stem in version.rule_files(tables) if stem not in FIXED]


def is_rows(node: Mapping[Any, Any]) -> bool:
    """A table's rows: every key a row number or range ('3', '1-5', '14+')."""
    return bool(node) and all(isinstance(key, int) and not isinstance(key, bool)
                              or isinstance(key, str) and ROW_KEY.fullmatch(key)
                              for key in node)


def _whole(node: Any) -> bool:
    """A value kept whole by an override: anything but a map of keys (rows included)."""
    return not isinstance(node, Mapping) or not node or is_rows(node)


def merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """`base` with the overrides merged over it, key by key down to the values kept whole."""
    merged = dict(base)
    for key, value in overrides.items():
        old = merged.get(key)
        if isinstance(value, Mapping) and isinstance(old, Mapping) and not _whole(old) \
                and not _whole(value):
            merged[key] = merge(old, value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def diff(base: Mapping[str, Any], changed: Mapping[str, Any]) -> dict[str, Any]:
    """Only what `changed` has that differs from `base` (whole values kept whole); a key of
    `base` that `changed` lacks is not a difference (an override never removes a key)."""
    found: dict[str, Any] = {}
    for key, value in changed.items():
        if key in base and base[key] == value:
            continue
        old = base.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping) and not _whole(old) \
                and not _whole(value):
            inner = diff(old, value)
            if inner:
                found[key] = inner
        else:
            found[key] = copy.deepcopy(value)
    return found


def effective(shipped: Tables, overrides: Mapping[str, Any]) -> Tables:
    """The campaign's rules: the shipped tables with the GM's overrides merged over them,
    built and checked by the loader (TableError naming file, key and row)."""
    if not overrides:
        return shipped
    files = {stem: merge(data, overrides[stem]) if stem in overrides else data
             for stem, data in shipped.files.items()}
    return rules_from(shipped, files)


class Taken(TableError):
    """A creation (`patched(create=True)`) naming a key the campaign's rules already have where
    the GM may add their own (a region, a light source): nothing is replaced."""

    def __init__(self, path: tuple[Any, ...], narration: Narrator) -> None:
        super().__init__(narration.render("regras_da_casa.ja_existe",
                                          {"arquivo": path[0], "chave": _dotted(path[1:])}))
        self.path = path


@dataclass(frozen=True)
class Change:
    """A change of the GM's rules checked: the overrides after it, the rules they give, and
    each value that changed (version.RuleChange, the event's data)."""

    overrides: Overrides
    tables: Tables
    changes: tuple[version.RuleChange, ...]


def patched(shipped: Tables, current: Mapping[str, Any], patch: Any,
            origin: str = ORIGIN_GM, create: bool = False) -> Change:
    """The GM's rules after `patch` (the export's shape; null: back to the shipped value),
    checked as a whole: a TableError names the file, the key and the row, and nothing
    changes. With `create`, the patch only adds the GM's own keys (a new region): one that
    exists already is refused (Taken), never replaced."""
    _check_shape(shipped, patch)
    patch = _numbered(patch)
    now = effective(shipped, current)
    files = {stem: copy.deepcopy(data) for stem, data in now.files.items()}
    for stem, part in patch.items():
        files[stem] = _apply(files[stem], part, shipped.files[stem], (stem,), shipped, create)
    overrides = {stem: found for stem in editable(shipped)
                 if (found := diff(shipped.files[stem], files[stem]))}
    tables = effective(shipped, overrides)
    return Change(overrides, tables, tuple(
        replace(change, origem=origin) for change in
        version.changes(version.rule_files(now), version.rule_files(tables))))


def _numbered(node: Any) -> Any:
    """Row numbers as numbers, as the files write them: JSON (the API, the GM page) can only
    send a map's keys as text ('3' → 3; a range '1-2' stays text)."""
    if not isinstance(node, Mapping):
        return node
    rows = is_rows(node)
    return {int(key) if rows and isinstance(key, str) and key.isdigit() else key:
            _numbered(value) for key, value in node.items()}


def _check_shape(shipped: Tables, patch: Any) -> None:
    files = editable(shipped)
    if not isinstance(patch, Mapping):
        raise TableError(shipped.narration.render("tabelas.casa_nao_e_mapa",
                                                  {"arquivos": list(files)}))
    for stem in patch:
        if stem not in files:
            raise TableError(shipped.narration.render("tabelas.casa_arquivo_fixo", {
                "arquivo": stem, "arquivos": list(files)}))
        if not isinstance(patch[stem], Mapping):
            raise TableError(shipped.narration.render("tabelas.casa_arquivo_nao_e_mapa",
                                                      {"arquivo": stem}))


def _apply(node: Any, part: Any, shipped: Any, path: tuple[Any, ...], tables: Tables,
           create: bool = False) -> Any:
    """`part` of a patch applied at `node` (the campaign's value at `path`; `shipped`, the
    shipped one there, or None); with `create`, a key the GM may add that is already there is
    refused (Taken)."""
    if not isinstance(part, Mapping) or not isinstance(node, Mapping) or _whole(node) \
            or _whole(part):
        return copy.deepcopy(part)
    result = dict(node)
    for key, value in part.items():
        was = shipped.get(key) if isinstance(shipped, Mapping) else None
        if create and key in result and _may_add(tables, path):
            raise Taken(path + (key,), tables.narration)
        if key not in result and not _may_add(tables, path) \
                and not _optional_field(tables, path, key):
            raise TableError(tables.narration.render("tabelas.casa_chave_nova", {
                "arquivo": path[0], "chave": _dotted(path[1:] + (key,))}))
        if value is None:
            if was is None:
                result.pop(key, None)  # something the GM added, removed
            else:
                result[key] = copy.deepcopy(was)  # back to the shipped value
            continue
        result[key] = _apply(result[key], value, was, path + (key,), tables, create) \
            if key in result else copy.deepcopy(value)
    return result


def _may_add(tables: Tables, path: tuple[Any, ...]) -> bool:
    """Whether the map at `path` (file, keys…) takes keys of the GM's own (a region, a light
    source): its typed value is a map, not a piece with fixed fields."""
    try:
        typed = typed_at(tables.piece, str(path[0]), *[str(key) for key in path[1:]])
    except LookupError:
        return False
    return isinstance(typed, Mapping)


def _optional_field(tables: Tables, path: tuple[Any, ...], key: Any) -> bool:
    """Whether `key` is a field of the piece at `path` that its value may leave out (a
    region's `preposicao`): the GM may give it where the data gave none."""
    try:
        typed = typed_at(tables.piece, str(path[0]), *[str(k) for k in path[1:]])
    except LookupError:  # a value the GM adds in this same patch (a new region): its kind's
        try:
            kind = typed_at(tables.piece, str(path[0]), *[str(k) for k in path[1:-1]])
        except LookupError:
            return False
        typed = next(iter(kind.values()), None) if isinstance(kind, Mapping) else None
    return dataclasses.is_dataclass(typed) and str(key) in {
        f.name for f in dataclasses.fields(typed)}


def _dotted(keys: tuple[Any, ...]) -> str:
    return ".".join(str(key) for key in keys) or "(raiz)"


def taken_reason(tables: Tables, taken: Taken, patch: Any) -> str:
    """Why a creation was refused, in words (tables/narracao/regras.yaml): a region named after
    a terrain, a region whose name is taken, or another key that exists."""
    stem, keys = taken.path[0], taken.path[1:]
    words = tables.narration
    if stem != "encontros" or len(keys) != 2 or keys[0] != "regioes":
        return words.render("regras.ja_existe", {"arquivo": stem, "chave": _dotted(keys)})
    key = str(keys[1])
    asked = patch.get(stem, {}).get("regioes", {}).get(keys[1]) if isinstance(patch, Mapping) \
        else None
    said = asked.get("regiao") if isinstance(asked, Mapping) else None
    terrains = tables.piece(TerrainNames).names()
    if key in terrains:
        return words.render("regras.regiao_terreno", {"nome": said or terrains[key],
                                                      "terreno": terrains[key]})
    return words.render("regras.regiao_existe",
                        {"nome": tables.piece(EncounterTables).name(key, terrains)})


# ------------------------------------------------------------------ opening after an update

@dataclass(frozen=True)
class Settled:
    """The GM's rules as this version of the companion can keep them, and what an update left
    without its key (told to the GM once, as RuleChanges with origem 'atualizacao')."""

    overrides: Overrides
    tables: Tables
    dropped: tuple[version.RuleChange, ...]


def settle(shipped: Tables, overrides: Mapping[str, Any]) -> Settled:
    """The stored overrides against these shipped tables: a key an update removed (or a file
    the rules no longer accept) is dropped, each said once."""
    dropped: list[version.RuleChange] = []
    kept: Overrides = {}
    files = editable(shipped)
    for stem, part in overrides.items():
        if stem not in files or not isinstance(part, Mapping):
            dropped.append(version.RuleChange(stem, version.WHOLE_FILE, part, None,
                                                    ORIGIN_UPDATE))
            continue
        inner = _orphans(shipped, shipped.files[stem], part, (stem,), dropped)
        if inner:
            kept[stem] = inner
    while True:
        try:
            return Settled(kept, effective(shipped, kept), tuple(dropped))
        except TableError as error:  # what the update made invalid goes: the GM's value
            dropped.append(_drop(kept, error.message))  # the error names, or its file's


FAULT = re.compile(r"tables/([\w-]+)\.yaml: (?:.*?)'([^']+)'")


def _drop(kept: Overrides, message: str) -> version.RuleChange:
    """Take out of `kept` the GM's value a loader error names (the deepest override on the
    error's key path; the file's overrides when none is named)."""
    found = FAULT.search(message)
    stem = found.group(1) if found and found.group(1) in kept else next(iter(kept))
    keys = found.group(2).split(".") if found and found.group(1) == stem else []
    node, path = kept[stem], []
    for key in keys:
        match = next((k for k in node if str(k) == key), None) \
            if isinstance(node, dict) else None
        if match is None:
            break
        if _whole(node[match]):
            path.append(match)
            break
        node, path = node[match], path + [match]
    if not path:
        return version.RuleChange(stem, version.WHOLE_FILE, kept.pop(stem), None,
                                        ORIGIN_UPDATE)
    parent = kept[stem]
    for key in path[:-1]:
        parent = parent[key]
    value = parent.pop(path[-1])
    _prune(kept, stem)
    return version.RuleChange(stem, _dotted(tuple(path)), value, None, ORIGIN_UPDATE)


def _prune(kept: Overrides, stem: str) -> None:
    """Empty maps left by a drop removed (an override is only what differs)."""
    def clean(node: Any) -> Any:
        if not isinstance(node, dict) or _whole(node) and node:
            return node
        return {k: v for k, v in ((k, clean(v)) for k, v in node.items())
                if not (isinstance(v, dict) and not v)}
    kept[stem] = clean(kept[stem])
    if not kept[stem]:
        del kept[stem]


def _orphans(tables: Tables, shipped: Any, part: Mapping[str, Any], path: tuple[Any, ...],
             dropped: list[version.RuleChange]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, value in part.items():
        here = path + (key,)
        if isinstance(shipped, Mapping) and key in shipped:
            below = shipped[key]
            if isinstance(value, Mapping) and isinstance(below, Mapping) \
                    and not _whole(below) and not _whole(value):
                inner = _orphans(tables, below, value, here, dropped)
                if inner:
                    kept[key] = inner
            else:
                kept[key] = value
        elif _may_add(tables, path):
            kept[key] = value
        else:
            dropped.append(version.RuleChange(str(path[0]), _dotted(here[1:]), value,
                                                    None, ORIGIN_UPDATE))
    return kept


_BUILT: dict[tuple[int, str], tuple[Tables, Tables]] = {}
BUILT_KEPT = 8  # rules versions built and kept (a campaign has a few)


def stored_rules(shipped: Tables, text: str | None) -> Tables:
    """The rules of a stored version of the GM's overrides (None: the shipped ones), as this
    version of the companion can keep them (`settle`), built once."""
    if not text:
        return shipped
    key = (id(shipped), text)
    cached = _BUILT.get(key)
    if cached is not None and cached[0] is shipped:
        return cached[1]
    tables = settle(shipped, load(text, shipped.narration)).tables
    if len(_BUILT) >= BUILT_KEPT:
        _BUILT.clear()
    _BUILT[key] = (shipped, tables)
    return tables


# ------------------------------------------------------------------ the file

def dump(overrides: Mapping[str, Any]) -> str:
    """The overrides as stored and exported: YAML in the files' order of keys."""
    if not overrides:
        return "{}\n"
    return yaml.dump(dict(overrides), Dumper=DUMPER, allow_unicode=True, sort_keys=False,
                     default_flow_style=False, width=100)


def export_text(overrides: Mapping[str, Any], words: Narrator) -> str:
    """The file `companion regras exportar` writes (a header, then the overrides)."""
    return words.render("regras_da_casa.cabecalho_exportado", {}) + dump(overrides)


def load(text: str, words: Narrator, where: str = "regras") -> Any:
    """A stored or exported file read back (TableError on YAML that cannot be read)."""
    try:
        return yaml.load(text, Loader=LOADER) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise TableError(words.render("regras_da_casa.yaml_invalido", {
            "onde": where, "linha": mark.line + 1 if mark is not None else None})) from None


def load_import(text: str, words: Narrator, where: str = "regras") -> Any:
    """A rules file someone hands the campaign (`regras importar`, the GM page's upload) read
    back: as `load`, but YAML anchors and aliases (`&a`, `*a`) are refused before anything is
    built — a few hundred bytes of nested aliases would otherwise expand to gigabytes. The
    exported files never use them."""
    try:
        for token in yaml.scan(text, Loader=LOADER):
            if isinstance(token, (yaml.AnchorToken, yaml.AliasToken)):
                raise TableError(words.render("regras_da_casa.yaml_ancoras", {
                    "onde": where, "linha": token.start_mark.line + 1}))
    except yaml.YAMLError:
        pass  # `load` says where the YAML is broken
    return load(text, words, where)


# ------------------------------------------------------------------ regions in use

def regions_kept(state: State, tables: Tables) -> None:
    """The region the day started in and the one the party is in still exist in `tables`,
    with the same terrain (TableError otherwise: a change cannot pull them away)."""
    regions = tables.piece(EncounterTables).regioes
    travel = state.travel
    for region, terrain in ((travel.region, travel.terrain),
                            (travel.day_start_region, travel.day_start_terrain)):
        if region is None:
            continue
        found = regions.get(region)
        if found is None:
            raise TableError(tables.narration.render("regras_da_casa.regiao_em_uso_apagada",
                                                     {"regiao": region}))
        if found.terreno_de(region) != terrain:
            raise TableError(tables.narration.render("regras_da_casa.regiao_em_uso_terreno",
                                                     {"regiao": region}))
