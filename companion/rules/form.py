"""The GM's rules as a form: the fields of the house values, generated from tables/.

A field is a value of tables/ the seeds do not give — a house default: every value inside a
map marked `padrao_da_casa: true` (or a whole file marked so), and the value `X` (or `X_…`)
beside a key `X_padrao_da_casa: true`. What a field takes comes from the type the typed pieces
declare for it (piece_lookup.declared_at; the value's own type otherwise): a whole number, a number,
text, yes/no, one of a few words (a Literal: a closed choice, even through a generic piece such
as inicio.yaml's `HouseValue[Season]`), a list of those (a `[mínimo, máximo]` pair, or any
length) or a map of those by name (casa.yaml `descanso.dados_de_vida`). Its label is its key's
words in tables/regras_tela.yaml (`chaves`, the key itself with spaces otherwise), under its
file's heading (`arquivos`), with the words of a choice's values (`opcoes`), of a list's items
(`itens`) and of a map (`mapas`). The regions and their encounter tables are edited as regions,
not as fields; the voice's names (nomes_da_voz.yaml) have their own section
(companion.server.voice_names_screen). `view` is what GET /api/regras answers: the overrides,
the values in force and the fields. There is no validator here: the loader checks every value.
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Literal, Mapping, Union, get_args, get_origin

from companion.rules import overlay
from companion.rules.overlay import is_rows
from companion.engine.procedures.encounters import EncounterTables, RegionTable
from companion.engine.terrain import TerrainNames
from companion.tables.piece_lookup import declared_at
from companion.tables.rulebook import piece
from companion.tables.files import Tables

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
    opcoes: Mapping[str, str]  # how a closed choice's value is shown ('verao': 'verão')
    itens: Mapping[str, tuple[str, ...]]  # the items of a list under that key ([mín, máx])
    mapas: Mapping[str, Mapping[str, str]]  # a map under that key: its key's and value's words
    nomes_da_voz: Mapping[str, str]  # the voice's names: the section's words


def fields(shipped: Tables, tables: Tables) -> list[dict[str, Any]]:
    """Every house value the GM may change, in the files' order: its file, key path, label,
    kind (inteiro, numero, texto, sim_nao, escolha with `opcoes`; lista with `itens` and
    `tamanho`; mapa with `valores`), the shipped default and the value in force."""
    words = shipped.piece(FormWords)
    found: list[dict[str, Any]] = []
    for stem in overlay.editable(shipped):
        if stem in REGIONS:
            continue
        data = shipped.files[stem]
        marked = isinstance(data, Mapping) and data.get(MARK) is True
        _walk(shipped, tables, words, stem, (), data, marked, found)
    return found


def _walk(shipped: Tables, tables: Tables, words: FormWords, stem: str, path: tuple[str, ...],
          node: Any, marked: bool, found: list[dict[str, Any]]) -> None:
    if not isinstance(node, Mapping) or is_rows(node):
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
        shape = _shape(stem, here, value) if chosen else None
        if shape is not None:
            found.append(_field(tables, words, stem, here, value, shape))
        elif isinstance(value, Mapping):
            _walk(shipped, tables, words, stem, here, value, chosen, found)


def _declared(stem: str, path: tuple[str, ...]) -> Any:
    try:
        return declared_at(stem, *path)
    except LookupError:
        return None


def _shape(stem: str, path: tuple[str, ...], value: Any) -> dict[str, Any] | None:
    """What a field takes, from the type the pieces declare for it (else the value's own):
    a scalar, a list of scalars (of a fixed length or any) or a map of scalars by name; None
    for what is not one field (a map of values, walked into)."""
    hint = _plain(_declared(stem, path))
    origin = get_origin(hint)
    if isinstance(value, Mapping):
        if not (isinstance(origin, type) and issubclass(origin, Mapping)) or is_rows(value):
            return None
        inner = _scalar(get_args(hint)[1], None)
        return {"tipo": "mapa", "valores": inner} if inner else None
    if isinstance(value, list):
        args = get_args(hint) if origin in (tuple, list) else ()
        if args and (len(args) == 2 and args[1] is Ellipsis or origin is list):
            inner = _scalar(args[0], None)
            return {"tipo": "lista", "itens": [inner], "tamanho": None} if inner else None
        kinds = [_scalar(arg, None) for arg in args]
        if kinds and all(kinds):
            return {"tipo": "lista", "itens": kinds, "tamanho": len(kinds)}
        if not args and value and all(_scalar(None, item) for item in value):
            return {"tipo": "lista", "itens": [_scalar(None, value[0])], "tamanho": None}
        return None
    if isinstance(value, (bool, int, float, str)):
        return _scalar(hint, value)
    return None


def _plain(hint: Any) -> Any:
    """An optional type as the type it holds."""
    while get_origin(hint) in (Union, types.UnionType):
        options = [arg for arg in get_args(hint) if arg is not type(None)]
        if len(options) != 1:
            return None if not options else options
        hint = options[0]
    return hint


def _scalar(hint: Any, value: Any) -> dict[str, Any] | None:
    """A scalar's kind: {tipo} (with `opcoes` for a closed choice); None if not a scalar."""
    hint = _plain(hint)
    if isinstance(hint, list):  # a union of scalars (float | int): a number
        hint = float if set(hint) <= {int, float} else None
    if get_origin(hint) is Literal:
        return {"tipo": "escolha", "opcoes": list(get_args(hint))}
    if hint in KINDS:
        return {"tipo": KINDS[hint]}
    if value is not None and type(value) in KINDS:
        return {"tipo": KINDS[type(value)]}
    return None


def _field(tables: Tables, words: FormWords, stem: str, path: tuple[str, ...], default: Any,
           shape: dict[str, Any]) -> dict[str, Any]:
    field: dict[str, Any] = {
        "arquivo": stem, "chave": ".".join(path), "rotulo": label(words, stem, path),
        **shape, "padrao": default, "valor": tables.get(stem, *path)}
    choices = [field, *field.get("itens", ()), field.get("valores") or {}]
    for kind in choices:
        if "opcoes" in kind:
            kind["rotulos_opcoes"] = {o: words.opcoes.get(str(o), str(o)) for o in kind["opcoes"]}
    if shape["tipo"] == "lista":
        field["rotulos_itens"] = next((list(words.itens[key]) for key in reversed(path)
                                       if key in words.itens), [])
    if shape["tipo"] == "mapa":
        field["rotulos_mapa"] = next((dict(words.mapas[key]) for key in reversed(path)
                                      if key in words.mapas), {})
    return field


def label(words: FormWords, stem: str, path: tuple[str, ...]) -> str:
    """'Padrões da casa › luz › tocha › turnos que dura'."""
    parts = [words.arquivos.get(stem, stem)]
    parts += [words.chaves.get(key, key.replace("_", " ")) for key in path]
    return " › ".join(parts)


def regions(shipped: Tables, tables: Tables) -> list[dict[str, Any]]:
    """The regions in force, each with its id, name, terrain, whether it is a terrain's
    default one (it cannot be deleted), its preposition ('' for none: "em"), its die and
    rows."""
    terrains = tables.piece(TerrainNames).names()
    found = []
    encounters = tables.piece(EncounterTables)
    raw = tables.files["encontros"]["regioes"]
    for key, region in encounters.regioes.items():
        found.append({
            "id": key, "nome": encounters.name(key, terrains),
            "terreno": region.terreno_de(key), "padrao": key in terrains,
            "tabela": encounters.table_name(key, terrains), "dados": region.dados,
            "preposicao": region.preposicao or "",
            "linhas": [{"linha": str(row), **_row(raw[key]["linhas"][row])}
                       for row in raw[key]["linhas"]],
            "mudada": key in overlay.diff(shipped.files["encontros"]["regioes"],
                                              raw)})
    return found


def warnings(patch: Any, tables: Tables) -> list[str]:
    """What a rules change the loader accepts may still do unawares, in the GM's words
    (tables/narracao/regras.yaml): a region's die that never gives some of its rows (a 1d4
    over six rows). Only the regions the change names with their die and rows."""
    regions = patch.get("encontros", {}).get("regioes", {}) if isinstance(patch, Mapping) else {}
    said = []
    for key, region in (regions.items() if isinstance(regions, Mapping) else ()):
        if not (isinstance(region, Mapping) and isinstance(region.get("dados"), str)
                and isinstance(region.get("linhas"), Mapping)):
            continue
        missed = RegionTable(dados=region["dados"], linhas=region["linhas"]).rows_out_of_reach()
        if missed:
            said.append(tables.narration.render("regras.linhas_fora_do_dado", {
                "regiao": region.get("regiao") or key, "dados": region["dados"],
                "linhas": missed}))
    return said


def _row(row: Any) -> dict[str, Any]:
    if isinstance(row, Mapping):
        return {"texto": row.get("texto", ""), "quantidade": row.get("quantidade")}
    return {"texto": str(row), "quantidade": None}


def view(shipped: Tables, tables: Tables, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """GET /api/regras: the campaign's overrides, the values in force, the form's fields and
    the regions, and the screen's words."""
    words = shipped.piece(FormWords)
    return {"sobrescritas": overrides,
            "efetivas": {stem: tables.files[stem] for stem in overlay.editable(shipped)},
            "campos": fields(shipped, tables),
            "regioes": regions(shipped, tables),
            "terrenos": tables.piece(TerrainNames).names(),
            "preposicoes": list(tables.piece(EncounterTables).preposicoes),
            "textos": dict(words.regioes)}
