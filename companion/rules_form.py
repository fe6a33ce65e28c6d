"""The GM's rules as a form: the fields of the house values, generated from tables/.

A field is a value of tables/ the seeds do not give — a house default: every value inside a
map marked `padrao_da_casa: true` (or a whole file marked so), and the value `X` (or `X_…`)
beside a key `X_padrao_da_casa: true`. What a field takes comes from the typed piece that reads
it (a whole number, a number, text, yes/no, one of a few words); its label is its key's words in
tables/regras_tela.yaml (`chaves`, the key itself with spaces otherwise), under its file's
heading (`arquivos`). The regions and their encounter tables are edited as regions, not as
fields. `view` is what GET /api/regras answers: the overrides, the values in force and the
fields.
"""
from __future__ import annotations

import types
from dataclasses import dataclass, is_dataclass
from typing import Any, Literal, Mapping, Union, get_args, get_origin, get_type_hints

from companion import house_rules
from companion.engine.procedures.encounters import EncounterTables
from companion.engine.toolkit import TerrainNames
from companion.rulebook import piece, typed_at
from companion.tables import Tables

MARK = "padrao_da_casa"
REGIONS = ("encontros",)  # files edited as regions, not as fields
KINDS: dict[Any, str] = {bool: "sim_nao", int: "inteiro", float: "numero", str: "texto"}


@piece("regras_tela")
@dataclass(frozen=True)
class FormWords:
    """tables/regras_tela.yaml: the words of the Regras screen."""

    arquivos: Mapping[str, str]
    chaves: Mapping[str, str]
    regioes: Mapping[str, str]


def fields(shipped: Tables, tables: Tables) -> list[dict[str, Any]]:
    """Every house value the GM may change, in the files' order: its file, key path, label,
    kind (inteiro, numero, texto, sim_nao, escolha with `opcoes`), the shipped default and the
    value in force."""
    words = shipped.piece(FormWords)
    found: list[dict[str, Any]] = []
    for stem in house_rules.editable(shipped):
        if stem in REGIONS:
            continue
        data = shipped.files[stem]
        marked = isinstance(data, Mapping) and data.get(MARK) is True
        _walk(shipped, tables, words, stem, (), data, marked, found)
    return found


def _walk(shipped: Tables, tables: Tables, words: FormWords, stem: str, path: tuple[str, ...],
          node: Any, marked: bool, found: list[dict[str, Any]]) -> None:
    if not isinstance(node, Mapping) or house_rules.is_rows(node):
        return
    marked = marked or node.get(MARK) is True
    beside = [str(key)[:-len(MARK) - 1] for key in node
              if str(key).endswith("_" + MARK) and node[key] is True]
    for key, value in node.items():
        name = str(key)
        if name == MARK or name.endswith("_" + MARK):
            continue
        here = path + (name,)
        chosen = marked or any(name == b or name.startswith(b + "_") for b in beside)
        if isinstance(value, Mapping):
            _walk(shipped, tables, words, stem, here, value, chosen, found)
        elif chosen and isinstance(value, (bool, int, float, str)):
            found.append(_field(shipped, tables, words, stem, here, value))


def _field(shipped: Tables, tables: Tables, words: FormWords, stem: str,
           path: tuple[str, ...], default: Any) -> dict[str, Any]:
    kind, options = _kind(shipped, stem, path, default)
    field: dict[str, Any] = {
        "arquivo": stem, "chave": ".".join(path), "rotulo": label(words, stem, path),
        "tipo": kind, "padrao": default, "valor": tables.get(stem, *path)}
    if options:
        field["opcoes"] = options
    return field


def label(words: FormWords, stem: str, path: tuple[str, ...]) -> str:
    """'Padrões da casa › luz › tocha › turnos que dura'."""
    parts = [words.arquivos.get(stem, stem)]
    parts += [words.chaves.get(key, key.replace("_", " ")) for key in path]
    return " › ".join(parts)


def _kind(shipped: Tables, stem: str, path: tuple[str, ...],
          value: Any) -> tuple[str, list[Any]]:
    """What the typed piece that reads the value takes (else: the value's own type)."""
    hint: Any = type(value)
    try:
        parent = typed_at(shipped.piece, stem, *path[:-1])
        if is_dataclass(parent):
            hint = get_type_hints(type(parent)).get(path[-1], hint)
    except LookupError:
        pass
    while get_origin(hint) in (Union, types.UnionType):
        options = [arg for arg in get_args(hint) if arg is not type(None)]
        hint = options[0] if len(options) == 1 else type(value)
    if get_origin(hint) is Literal:
        return "escolha", list(get_args(hint))
    return KINDS.get(hint, KINDS.get(type(value), "texto")), []


def regions(shipped: Tables, tables: Tables) -> list[dict[str, Any]]:
    """The regions in force, each with its id, name, terrain, whether it is a terrain's
    default one (it cannot be deleted), its die and rows."""
    terrains = tables.piece(TerrainNames).names()
    found = []
    encounters = tables.piece(EncounterTables)
    raw = tables.files["encontros"]["regioes"]
    for key, region in encounters.regioes.items():
        found.append({
            "id": key, "nome": encounters.name(key, terrains),
            "terreno": region.terreno_de(key), "padrao": key in terrains,
            "tabela": encounters.table_name(key, terrains), "dados": region.dados,
            "linhas": [{"linha": str(row), **_row(raw[key]["linhas"][row])}
                       for row in raw[key]["linhas"]],
            "mudada": key in house_rules.diff(shipped.files["encontros"]["regioes"],
                                              raw)})
    return found


def _row(row: Any) -> dict[str, Any]:
    if isinstance(row, Mapping):
        return {"texto": row.get("texto", ""), "quantidade": row.get("quantidade")}
    return {"texto": str(row), "quantidade": None}


def view(shipped: Tables, tables: Tables, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """GET /api/regras: the campaign's overrides, the values in force, the form's fields and
    the regions, and the screen's words."""
    words = shipped.piece(FormWords)
    return {"sobrescritas": overrides,
            "efetivas": {stem: tables.files[stem] for stem in house_rules.editable(shipped)},
            "campos": fields(shipped, tables),
            "regioes": regions(shipped, tables),
            "terrenos": tables.piece(TerrainNames).names(),
            "textos": dict(words.regioes)}
