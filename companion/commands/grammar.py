"""frases.yaml compiled into hassil intents, once per Tables (the light sources of casa.yaml,
the regions of encontros.yaml and the sheet fields added as lists), with what reading a match
needs besides.

The templates may be written with accents ("pântano", "então"): they are folded here, as the
input is (normalize.py), and the accents written in the lists and the skip words are kept for
what people read and hear (a list's values in a refusal; the voice's phrase list)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from hassil import Intents, TextSlotList, TextSlotValue
from hassil.expression import TextChunk

from companion.commands.contract import ArgumentContract
from companion.commands.normalize import fold
from companion.commands.sentences import HouseRules, SentenceFile
from companion.tables.dice_limits import DiceLimits
from companion.tables.errors import TableError
from companion.tables.light_sources import LightRules
from companion.tables.narration import Narrator
from companion.tables.prompt_names import PromptLabels
from companion.tables.protocol import CommandRules
from companion.tables.piece_lookup import typed_at
from companion.tables.files import Tables

LANGUAGE = "pt"


@dataclass(frozen=True)
class Grammar:
    """frases.yaml compiled once: hassil intents plus the house rules for cleaning slots."""

    intents: Intents
    rules: HouseRules
    usage: Mapping[str, str]
    contract: ArgumentContract  # argumentos.yaml (+ the sheet fields): what each command takes
    dice_limits: DiceLimits  # tables/casa.yaml limites_dados: the largest dice modifier
    narration: Narrator  # refusals: tables/narracao/leitura.yaml, argumentos.yaml
    values: Mapping[str, tuple[str, ...]]  # each text list's values as written ("planície")
    accents: Mapping[str, str]  # folded word → as written in the lists and skip words


_CACHE: dict[int, tuple[Tables, Grammar]] = {}


def grammar(tables: Tables) -> Grammar:
    """The compiled templates for these tables (compiled once per Tables object)."""
    cached = _CACHE.get(id(tables))
    if cached is not None and cached[0] is tables:
        return cached[1]
    house = tables.piece(SentenceFile).mesa  # checked (hassil reads the templates themselves)
    data = tables["frases"]
    accents = written_accents([*_list_texts(data.get("lists", {})),
                               *map(str, data.get("skip_words", []))])
    try:
        intents = Intents.from_dict(_folded({k: v for k, v in data.items() if k != "mesa"}))
    except Exception as error:  # hassil's template errors, translated once here
        raise TableError(tables.narration.render("tabelas.modelo_de_frase",
                                                 {"erro": str(error)})) from None
    _add_light_sources(intents, tables)
    _add_regions(intents, tables)
    _add_sheet_fields(intents, house)
    _add_prompt_options(intents, tables)
    values = _value_names(intents, accents)
    unknown = sorted(set(house.fora_da_lista) - set(values))
    if unknown:
        raise TableError(tables.narration.render("tabelas.fora_da_lista", {"listas": unknown}))
    contract = tables.piece(ArgumentContract).with_sheet(house.atributos, tables.narration)
    compiled = Grammar(intents=intents, rules=house, usage=_usage(tables), contract=contract,
                       dice_limits=tables.piece(DiceLimits), narration=tables.narration,
                       values=values, accents=accents)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[id(tables)] = (tables, compiled)
    return compiled


def _usage(tables: Tables) -> dict[str, str]:
    """Each command's help line from comandos.yaml ("terreno planície|… — terreno do hex")."""
    return {name: spec.ajuda for name, spec in tables.piece(CommandRules).comandos.items()}


def _add_light_sources(intents: Intents, tables: Tables) -> None:
    """Every light source of casa.yaml `luz` can be named as itself."""
    sources = tables.piece(LightRules).luz
    slot_list = intents.slot_lists.get("fonte")
    if not isinstance(slot_list, TextSlotList):
        return
    known = {value.value_out for value in slot_list.values}
    extra = [TextSlotValue(TextChunk(fold(str(key))), str(key))
             for key in sources if str(key) not in known]
    if extra:
        intents.slot_lists["fonte"] = TextSlotList(name="fonte",
                                                   values=[*slot_list.values, *extra])


def _add_regions(intents: Intents, tables: Tables) -> None:
    """The {regiao_nome} list: every region the GM named (a terrain's default region is said
    by the terrain's name, the {terreno} list)."""
    # the engine's piece (procedures/encounters.py), read by its place: the parser is beside
    # the engine, not above it
    regions = typed_at(tables.piece, "encontros", "regioes")
    values = [TextSlotValue(TextChunk(" ".join(fold(region.regiao).split())), key)
              for key, region in regions.items() if region.regiao]
    intents.slot_lists["regiao_nome"] = TextSlotList(name="regiao_nome", values=values)


def _add_sheet_fields(intents: Intents, rules: HouseRules) -> None:
    """The {campo} list ("Ana comida +2"): every sheet alias except the signed modifiers."""
    signed = set(rules.atributos_com_sinal)
    values = [TextSlotValue(TextChunk(" ".join(fold(alias).split())), str(key))
              for key, aliases in rules.atributos.items() if key not in signed
              for alias in aliases]
    intents.slot_lists["campo"] = TextSlotList(name="campo", values=values)


def _add_prompt_options(intents: Intents, tables: Tables) -> None:
    """The {opcao_dita} list ("responder descansar Lia"): each prompt option of pedidos.yaml
    `nomes_opcoes`, by its value and by its label, read as the value."""
    labels = tables.piece(PromptLabels).nomes_opcoes
    said = {(fold(str(way)), str(option)) for option, label in labels.items()
            for way in (option, label)}
    intents.slot_lists["opcao_dita"] = TextSlotList(
        name="opcao_dita", values=[TextSlotValue(TextChunk(way), option)
                                   for way, option in sorted(said)])


# ---------------------------------------------------------------- written with accents

_WORD = re.compile(r"[^\W\d_]+")


def written_accents(texts: list[str]) -> dict[str, str]:
    """Folded word → the word as written, for words written with accents ("pantano" →
    "pântano"). A word also written without them, or with two different accents, is left out:
    only the context can say which one is meant."""
    accented: dict[str, set[str]] = {}
    plain: set[str] = set()
    for text in texts:
        for word in _WORD.findall(text.lower()):
            folded = fold(word)
            if folded == word:
                plain.add(word)
            else:
                accented.setdefault(folded, set()).add(word)
    return {folded: next(iter(words)) for folded, words in accented.items()
            if len(words) == 1 and folded not in plain}


def _list_texts(lists: Mapping[str, Any]) -> list[str]:
    """Every text said in the lists of frases.yaml (their `in`, or the plain value)."""
    texts: list[str] = []
    for spec in lists.values():
        for value in (spec.get("values") or []) if isinstance(spec, Mapping) else []:
            texts.append(str(value.get("in", "")) if isinstance(value, Mapping) else str(value))
    return texts


_KEPT = frozenset({"slots", "metadata", "out", "requires_context", "excludes_context",
                   "context"})


def _folded(data: Any) -> Any:
    """frases.yaml as matched: sentences, expansion rules, list inputs and skip words folded;
    what a template gives out (list `out`, slots, metadata) kept as written."""
    if isinstance(data, str):
        return fold(data)
    if isinstance(data, list):
        return [_folded(item) for item in data]
    if not isinstance(data, Mapping):
        return data
    return {key: (value if key in _KEPT else
                  [_folded_value(v) for v in value] if key == "values" and isinstance(value, list)
                  else _folded(value))
            for key, value in data.items()}


def _folded_value(value: Any) -> Any:
    """One value of a list: its `in` folded, its `out` as written ("verão" → in verao)."""
    if isinstance(value, Mapping):
        return {**value, "in": fold(str(value["in"]))} if "in" in value else value
    return {"in": fold(str(value)), "out": str(value)}


def _value_names(intents: Intents, accents: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Each text list's values as people read them: the `out`, with the accents its own words
    were written with ("pantano" said as "pântano"), in the list's order."""
    names: dict[str, tuple[str, ...]] = {}
    for name, slot_list in intents.slot_lists.items():
        if not isinstance(slot_list, TextSlotList):
            continue
        shown = (" ".join(accents.get(word, word) for word in str(value.value_out).split())
                 for value in slot_list.values)
        names[name] = tuple(dict.fromkeys(shown))
    return names
