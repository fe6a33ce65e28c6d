"""Portuguese text → Command, with the sentence templates of tables/frases.yaml (hassil).

`parse` never raises on any text: "not a command" is a ParseResult with an error message.
Templates match the normalized text as a whole; wildcard slots (names, creatures, treasure) are
given back as the GM wrote them and cleaned by the rules in the `mesa` section of frases.yaml.
A value said outside a list ("terreno lava") is caught by a wildcard template that ranks below
the list's own and reaches the engine as said, so the engine's message lists what it accepts.
A command word said alone ("terreno") matches a template marked `falta`: the answer says what is
missing and the command's usage line from comandos.yaml. A template marked `recusa` is a clear
"no" ("caçar e pescar": one activity per round) with the YAML's explanation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from hassil import Intents, TextSlotList, TextSlotValue, recognize_all
from hassil.expression import TextChunk

from companion.commands import contract
from companion.commands.contract import ArgumentContract
from companion.commands.normalize import Normalized, fold, normalize
from companion.dice_limits import DiceLimits
from companion.vocabulary import Command
from companion.errors import TableError
from companion.light_sources import LightRules
from companion.narration import Narrator
from companion.protocol import CommandRules
from companion.rulebook import InvalidValue, piece, require_filled
from companion.tables import Tables

LANGUAGE = "pt"
_QUOTE_MAX = 60

@dataclass(frozen=True)
class Wildcard:
    """A free slot (mesa.curingas): how many words it takes, and how they are cleaned."""

    palavras: int
    nome_de_pessoa: bool
    filtra_inicio: bool


@dataclass(frozen=True)
class Sample:
    """How many sentences per template the phrase sample takes (mesa.amostra)."""

    de: int
    ate: int
    por_modelo: int


_WORD_LISTS = ("nao_sao_nomes", "particulas", "artigos", "varios_personagens",
               "separadores_de_nomes", "palavras_de_rolar", "separadores_de_marcha",
               "atributos_com_sinal", "palavras_de_tesouro")


@dataclass(frozen=True)
class HouseRules:
    """frases.yaml `mesa`: the house's rules for reading a sentence's slots."""

    max_caracteres: int
    max_palavras: int
    curingas: Mapping[str, Wildcard]
    curinga_padrao: Wildcard  # a free slot `curingas` does not name
    nao_sao_nomes: tuple[str, ...]
    particulas: tuple[str, ...]
    artigos: tuple[str, ...]
    varios_personagens: tuple[str, ...]
    separadores_de_nomes: tuple[str, ...]
    palavras_de_rolar: tuple[str, ...]
    separadores_de_marcha: tuple[str, ...]
    atributos_com_sinal: tuple[str, ...]
    palavras_de_tesouro: tuple[str, ...]
    atributos: Mapping[str, tuple[str, ...]]
    amostra: Sample
    padrao_da_casa: bool = False

    def wildcard(self, slot: str) -> Wildcard:
        """How a free slot is read: its own entry of `curingas`, else `curinga_padrao`."""
        return self.curingas.get(slot, self.curinga_padrao)

    def validate(self) -> None:
        require_filled(self, *_WORD_LISTS, "atributos")


@dataclass(frozen=True)
class IntentSpec:
    """One intent of hassil's format: its `data` blocks, each with its `sentences` (the rest
    of a block, slots and metadata, is hassil's to read)."""

    data: tuple[Mapping[str, Any], ...]

    def validate(self) -> None:
        if not self.data:
            raise InvalidValue("data", "uma lista não vazia")
        for index, block in enumerate(self.data):
            sentences = block.get("sentences")
            if not isinstance(sentences, list) or not sentences \
                    or not all(isinstance(sentence, str) for sentence in sentences):
                raise InvalidValue(f"data[{index}].sentences", "uma lista não vazia de frases")


@piece("frases")
@dataclass(frozen=True)
class SentenceFile:
    """tables/frases.yaml: hassil's templates (language, intents, lists, expansion rules,
    skip words) and the house's rules (`mesa`)."""

    language: str
    intents: Mapping[str, IntentSpec]
    lists: Mapping[str, Any]
    expansion_rules: Mapping[str, Any]
    skip_words: tuple[str, ...]
    mesa: HouseRules

    def validate(self) -> None:
        require_filled(self, "skip_words")


@dataclass(frozen=True)
class ParseResult:
    """What a text means: a command, or why it is not one."""

    command: Command | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """{"command": "rolar", "args": {...}} or {"command": null, "error": "…"}."""
        if self.command is None:
            return {"command": None, "error": self.error}
        return {"command": self.command.name, "args": dict(self.command.args)}


class ArgError(Exception):
    """A template matched but its slots do not make a command (a bad name, a bad sheet).
    Without a code it is table talk, not a command (nothing to say); with one, the reason is
    rendered from tables/narracao/leitura.yaml where the error is caught."""

    def __init__(self, code: str | None = None, final: bool = False,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(code or "")
        self.code = code
        self.params = dict(params or {})
        self.final = final  # the form is clear and wrong: no other reading should win

    @classmethod
    def because(cls, code: str, final: bool = False, **params: Any) -> ArgError:
        """The reason said by its code ('leitura.nao_e_nome') and the values it needs."""
        return cls(code, final, params)

    def message(self, narrator: Narrator) -> str:
        """The reason in words ('' for table talk)."""
        return narrator.render(self.code, self.params) if self.code else ""


class SeveralCharacters(Exception):
    """A name slot holds several characters ("Ana e Carla", "os três"): one per command."""

    def __init__(self, said: str, names: tuple[str, ...] = ()) -> None:
        super().__init__(said)
        self.said = said    # the words as the GM wrote them
        self.names = names  # the names, when they were said; empty for "todos", "os três"


@dataclass(frozen=True)
class Grammar:
    """frases.yaml compiled once: hassil intents plus the house rules for cleaning slots."""

    intents: Intents
    rules: HouseRules
    usage: Mapping[str, str]
    contract: ArgumentContract  # argumentos.yaml (+ the sheet fields): what each command takes
    dice_limits: DiceLimits  # tables/casa.yaml limites_dados: the largest dice modifier
    narration: Narrator  # refusals: tables/narracao/leitura.yaml, argumentos.yaml


_CACHE: dict[int, tuple[Tables, Grammar]] = {}


def grammar(tables: Tables) -> Grammar:
    """The compiled templates for these tables (compiled once per Tables object)."""
    cached = _CACHE.get(id(tables))
    if cached is not None and cached[0] is tables:
        return cached[1]
    house = tables.piece(SentenceFile).mesa  # checked (hassil reads the templates themselves)
    data = tables["frases"]
    try:
        intents = Intents.from_dict({k: v for k, v in data.items() if k != "mesa"})
    except Exception as error:  # hassil's template errors, translated once here
        raise TableError(f"tables/frases.yaml: modelo de frase inválido ({error})") from None
    _add_light_sources(intents, tables)
    _add_sheet_fields(intents, house)
    compiled = Grammar(intents=intents, rules=house, usage=_usage(tables),
                       contract=tables.piece(ArgumentContract).with_sheet(house.atributos),
                       dice_limits=tables.piece(DiceLimits), narration=tables.narration)
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


def _add_sheet_fields(intents: Intents, rules: HouseRules) -> None:
    """The {campo} list ("Ana comida +2"): every sheet alias except the signed modifiers."""
    signed = set(rules.atributos_com_sinal)
    values = [TextSlotValue(TextChunk(" ".join(fold(alias).split())), str(key))
              for key, aliases in rules.atributos.items() if key not in signed
              for alias in aliases]
    intents.slot_lists["campo"] = TextSlotList(name="campo", values=values)


# ---------------------------------------------------------------- parsing


def parse(text: str, tables: Tables) -> ParseResult:
    """What the text means. Never raises for any text."""
    compiled = grammar(tables)
    limit = compiled.rules.max_caracteres
    raw = str(text)
    normalized = normalize(raw[: limit + 1])
    shown = _quote(normalized)
    words = compiled.narration
    if not shown:
        return ParseResult(error=words.render("leitura.vazio", {}))
    if len(raw) > limit:
        return ParseResult(error=words.render("leitura.longo_demais",
                                              {"caracteres": len(raw), "maximo": limit}))
    if not normalized.tokens:
        return ParseResult(error=_unknown(shown, compiled))
    if len(normalized.tokens) > compiled.rules.max_palavras:
        return ParseResult(error=words.render("leitura.palavras_demais", {"dito": shown}))
    try:
        result = _best(normalized, compiled, shown)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return ParseResult(error=_unknown(shown, compiled))
    if result.command is None and result.error == _unknown(shown, compiled):
        return _last_clause(raw, tables) or result
    return result


def _unknown(shown: str, compiled: Grammar) -> str:
    return compiled.narration.render("leitura.nao_entendi", {"dito": shown})


_CLAUSE_END = re.compile(r"[.!?;,…]+(?=\s|$)")


def _last_clause(raw: str, tables: Tables) -> ParseResult | None:
    """'o ogro ataca! vamos fugir': table talk, then a command — the last clause, if it is one."""
    clauses = [clause for clause in _CLAUSE_END.split(raw) if clause.strip()]
    if len(clauses) < 2:
        return None
    result = parse(clauses[-1], tables)
    return result if result.command is not None else None


def _quote(normalized: Normalized) -> str:
    """The input as it can be quoted back: one line, trimmed, not too long."""
    plain = " ".join(normalized.original)
    return plain if len(plain) <= _QUOTE_MAX else plain[: _QUOTE_MAX - 1] + "…"


def _best(normalized: Normalized, compiled: Grammar, shown: str) -> ParseResult:
    """Try every match, best first; the first whose slots make a command wins."""
    results = sorted(recognize_all(normalized.text, compiled.intents, language=LANGUAGE),
                     key=_rank)
    first_error: str | None = None
    for result in results:
        try:
            name, args = _build(result, normalized, compiled, shown)
        except ArgError as error:
            if error.final:
                return ParseResult(error=error.message(compiled.narration))
            first_error = first_error or error.message(compiled.narration) or None
            continue
        return ParseResult(command=Command(name=name, args=args))
    return ParseResult(error=first_error or _unknown(shown, compiled))


def _rank(result: Any) -> tuple[int, int, int, str]:
    """Less text swallowed by wildcards first, then fewer wildcards, more literal words."""
    wildcards = [e for e in result.entities_list if e.is_wildcard]
    return (sum(len(e.text or "") for e in wildcards), len(wildcards),
            -result.text_chunks_matched, result.intent.name)


def _build(result: Any, normalized: Normalized, compiled: Grammar,
           shown: str) -> tuple[str, dict[str, Any]]:
    """Canonical command name and args from one hassil match."""
    rules = compiled.rules
    metadata = result.intent_metadata or {}
    if metadata.get("falta"):
        raise ArgError.because("leitura.falta", o_que=str(metadata["falta"]), dito=shown,
                               uso=compiled.usage.get(result.intent.name, result.intent.name))
    if metadata.get("recusa"):
        raise ArgError.because("leitura.recusa", final=True, dito=shown,
                               motivo=str(metadata["recusa"]))
    name = result.intent.name
    try:
        slots = _slots(result, normalized, rules)
        if metadata.get("tesouro_ou_item"):
            name = _treasure_or_item(slots, rules)
        args = BUILDERS.get(name, _as_is)(slots, rules, shown)
    except SeveralCharacters as several:
        raise _one_at_a_time(several, name, compiled, shown) from None
    try:
        contract.check(compiled.contract, compiled.dice_limits, compiled.narration, name, args)
    except contract.ContractBroken as broken:
        raise ArgError.because("leitura.contrato", final=True, dito=shown,
                               problema=str(broken)) from None
    return name, args


def _slots(result: Any, normalized: Normalized, rules: HouseRules) -> dict[str, Any]:
    """Every slot of a match: list values as they are, wildcards cleaned."""
    slots: dict[str, Any] = {}
    for entity in result.entities_list:
        if entity.is_wildcard:
            slots[entity.name] = _clean_wildcard(entity.name, str(entity.value), normalized,
                                                 rules)
        else:
            slots[entity.name] = _plain_value(entity.value)
    return slots


def _one_at_a_time(several: SeveralCharacters, name: str, compiled: Grammar,
                   shown: str) -> ArgError:
    """'pânico Ana e Carla' → say it once per character ('pânico Ana', depois 'pânico Carla')."""
    if several.names and several.said in shown:
        return ArgError.because("leitura.um_por_vez_exemplos", final=True, dito=shown,
                                exemplos=[shown.replace(several.said, who, 1)
                                          for who in several.names])
    return ArgError.because("leitura.um_por_vez", dito=shown,
                            uso=compiled.usage.get(name, name))


def _plain_value(value: Any) -> Any:
    """Range values come back as floats for digits: whole numbers become ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value




def _clean_wildcard(slot: str, value: str, normalized: Normalized,
                    rules: HouseRules) -> str:
    """A captured name as the GM wrote it, trimmed, within the word limit."""
    spec = rules.wildcard(slot)
    words = value.split()
    restored = normalized.restore(value) or value
    if spec.nome_de_pessoa:
        _refuse_several(restored, words, rules)
    if not words or len(words) > spec.palavras:
        raise ArgError()  # too long to be a name: table talk, not a command
    if spec.nome_de_pessoa:
        return _person_name(restored, words, rules)
    if spec.filtra_inicio and words[0] in rules.nao_sao_nomes:
        raise ArgError()  # "a estação de trem": an article or pronoun, not a value
    return restored


def _person_name(restored: str, words: list[str], rules: HouseRules) -> str:
    """A character's name: not a pronoun; capitalized when said all lowercase.

    An article before the name is how Brazilians talk ("a Bia", "o Caio"): it is dropped.
    """
    said = restored
    if len(words) > 1 and words[0] in rules.artigos:
        restored, words = _drop_first_word(restored, words)
    if words[0] in rules.nao_sao_nomes or any(w.isdigit() for w in words):
        raise ArgError.because("leitura.nao_e_nome", dito=said)
    if restored != restored.lower():
        return restored
    particles = set(rules.particulas)
    return " ".join(w if w in particles else w[:1].upper() + w[1:] for w in restored.split())


def _refuse_several(restored: str, words: list[str], rules: HouseRules) -> None:
    """'Ana e Carla', 'Ana, Bia e Caio', 'os três', 'todos': several characters, not one name.

    `words` are the normalized words ("os 3"). A name with 'e' inside stays one name when a
    part has more words ('Ana Souza e Silva').
    """
    article = len(words) > 1 and words[0] in rules.artigos
    rest = words[1:] if article else words
    if " ".join(rest) in rules.varios_personagens or (article and all(
            w.isdigit() for w in rest)):
        raise SeveralCharacters(restored)
    names = _names_said_together(restored, rules)
    if len(names) > 1:
        raise SeveralCharacters(restored.strip(" ,;:.!?"), tuple(names))


def _names_said_together(restored: str, rules: HouseRules) -> list[str]:
    """The one-word names of 'a Ana, Bia e o Caio' (articles dropped); [] when not a list."""
    separators = [fold(s).strip() for s in rules.separadores_de_nomes]
    pieces = restored.replace(",", " , ").split()
    parts: list[list[str]] = [[]]
    for piece in pieces:
        if fold(piece) in separators:
            parts.append([])
        else:
            parts[-1].append(piece.strip(" ,;:.!?"))
    parts = [part for part in parts if part]
    for part in parts:
        if len(part) > 1 and fold(part[0]) in rules.artigos:
            del part[0]
    if len(parts) < 2 or any(len(part) != 1 for part in parts):
        return []
    return [part[0] for part in parts]


def _drop_first_word(restored: str, words: list[str]) -> tuple[str, list[str]]:
    """'a Bia' → 'Bia' (the original spelling kept when it lines up with the words)."""
    pieces = restored.split(None, 1)
    if len(pieces) == 2 and fold(pieces[0]).strip(" ,;:.!?") == words[0]:
        return pieces[1], words[1:]
    return " ".join(words[1:]), words[1:]


def _treasure_or_item(slots: Mapping[str, Any], rules: HouseRules) -> str:
    """'achamos 50 moedas de ouro' is treasure; 'achamos 2 poções' is an item."""
    words = set(fold(str(slots.get("tipo", ""))).split())
    return "tesouro" if words & set(rules.palavras_de_tesouro) else "item"


# ---------------------------------------------------------------- builders per command

Builder = Callable[[dict[str, Any], Mapping[str, Any], str], dict[str, Any]]


def _as_is(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    return slots


def _dice_expression(slots: dict[str, Any]) -> str:
    """"2d6+1" from the qtd/lados/bonus/penalidade slots."""
    count = int(slots.pop("qtd", 1))
    sides = int(slots.pop("lados"))
    bonus = int(slots.pop("bonus", 0))
    penalty = int(slots.pop("penalidade", 0))
    if count < 1:
        raise ArgError.because("leitura.dados_de_menos", final=True, quantidade=count,
                               lados=sides)
    text = f"{count}d{sides}"
    return text + (f"+{bonus}" if bonus else "") + (f"-{penalty}" if penalty else "")


def _roll(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    args = {"expressao": _dice_expression(slots)}
    if "vantagem" in slots:
        args["vantagem"] = slots["vantagem"]
    return args


def _secret(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'segredo 1d20+2 escutar' or 'o Bruno escuta atrás da porta' (motivo 'Bruno: escutar…')."""
    args: dict[str, Any] = {}
    if "lados" in slots:
        args["expressao"] = _dice_expression(slots)
    if "acao_secreta" in slots:
        slots["motivo"] = _secret_reason(slots)
    if slots.get("motivo"):
        args["motivo"] = slots["motivo"]
    return args


def _secret_reason(slots: Mapping[str, Any]) -> str:
    """'Bruno: escutar atrás da porta' — who, the action as a verb, and what it is about."""
    action = " ".join(str(part) for part in (slots["acao_secreta"], slots.get("alvo", ""))
                      if part)
    who = slots.get("personagem")
    return f"{who}: {action}" if who else action


def _marching_order(slots: dict[str, Any], rules: HouseRules,
                    shown: str) -> dict[str, Any]:
    """'Ana, Bia e Caio', 'Caio na frente, depois Ana e Bia', 'Caio Ana Bia' → the names.

    With commas, each name is what stands between separators ('Ana Clara, Bia e Caio').
    Without a comma, a name is one word (particles join: 'Ana de Souza') except the last item
    of the list, which may have several ('ana bia e caio' → Ana, Bia, Caio; 'Bia e Ana Clara'
    → Bia, Ana Clara): a list said without commas left them out before its last 'e'."""
    words = str(slots["ordem"]).replace(",", " , ").replace(";", " , ").split()
    groups, separated = _split_on_separators(words, rules)
    if not separated:
        groups = [name for group in groups for name in _one_word_names(group, rules)]
    elif "," not in words:
        groups = [name for group in groups[:-1] for name in _one_word_names(group, rules)] \
            + groups[-1:]
    cleaned = [_person_name(" ".join(n), fold(" ".join(n)).split(), rules)
               for n in groups if n]
    if not cleaned:
        raise ArgError.because("leitura.marcha_sem_nomes")
    return {"ordem": cleaned}


def _split_on_separators(words: list[str],
                         rules: HouseRules) -> tuple[list[list[str]], bool]:
    """Groups of words between separators (',', 'e', 'depois', 'na frente'…); any found?"""
    separators = sorted((fold(s).split() or [","] for s in rules.separadores_de_marcha),
                        key=len, reverse=True)
    folded = [fold(w).strip(".!?:") or w for w in words]
    groups: list[list[str]] = [[]]
    found, index = False, 0
    while index < len(words):
        size = next((len(s) for s in separators if folded[index:index + len(s)] == s), 0)
        if size:
            found = True
            groups.append([])
            index += size
            continue
        groups[-1].append(words[index].strip(".!?:"))
        index += 1
    return [g for g in groups if any(g)], found


def _one_word_names(group: list[str], rules: HouseRules) -> list[list[str]]:
    """'Caio Ana Bia' (no separator): a name per word; 'de'/'da' join ('Ana de Souza')."""
    particles = set(rules.particulas) - {"e"}
    names: list[list[str]] = []
    for word in group:
        joined = names and (fold(word) in particles or fold(names[-1][-1]) in particles)
        if joined:
            names[-1].append(word)
        else:
            names.append([word])
    return names


def _monster(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'monstro ogro na sala 3' and the bare 'o ogro morreu' ({monstro_dito}) give `nome`."""
    if "sala_num" in slots:
        slots["sala"] = str(slots.pop("sala_num"))
    if "monstro_dito" in slots:
        slots["nome"] = slots.pop("monstro_dito")
    return slots


def _sheet(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'Ana nível 2 pv 12 con 1' → nome and the numbers that follow each attribute.

    A sign on a field other than an attribute modifier ('comida +2', 'pv menos 3') makes the
    sheet a change (`relativo`): then every field must carry its sign.
    """
    if "campo" in slots or "dano_em" in slots:
        return _said_change(slots, rules)
    raw = str(slots["ficha"])
    sheet = normalize(raw)  # "pv_max 12" → "pv max 12", "doze" → "12"
    words = [token.text for token in sheet.tokens]
    aliases = sorted(((fold(alias).split(), key) for key, names in rules.atributos.items()
                      for alias in names), key=lambda pair: -len(pair[0]))
    start = next((i for i in range(len(words)) if _alias_at(words, i, aliases)), len(words))
    if start == 0:
        raise ArgError.because("leitura.ficha_sem_nome", dito=raw)
    said = sheet.restore(" ".join(words[:start]))
    args: dict[str, Any] = {"nome": _person_name(said, fold(said).split(), rules)}
    signed: set[str] = set()
    index = start
    while index < len(words):
        found = _alias_at(words, index, aliases)
        if found is None:
            raise ArgError.because("leitura.ficha_palavra", palavra=words[index],
                                   nome=args["nome"], campos=list(rules.atributos))
        size, key = found
        value, used, has_sign = _signed_number(words, index + size)
        if value is None and key == "dado_de_vida" and words[index + size:index + size + 1] \
                == ["d"]:  # "dado de vida d6" (normalized to "d 6")
            value, used, has_sign = _signed_number(words, index + size + 1)
            used += 1
        if value is None:
            raise ArgError.because("leitura.ficha_sem_numero",
                                   campo=" ".join(words[index:index + size]))
        args[key] = value
        signed |= {key} if has_sign else set()
        index += size + used
    return _relative_if_signed(args, signed, rules, shown)


def _relative_if_signed(args: dict[str, Any], signed: set[str], rules: HouseRules,
                        shown: str) -> dict[str, Any]:
    """'comida +2' is a change; mixing changes and values in one sheet is refused."""
    if not signed - set(rules.atributos_com_sinal):
        return args
    unsigned = [key for key in args if key != "nome" and key not in signed]
    if unsigned:
        raise ArgError.because("leitura.ficha_mistura", final=True, dito=shown,
                               valores=unsigned)
    return {**args, "relativo": True}


def _said_change(slots: dict[str, Any], rules: HouseRules) -> dict[str, Any]:
    """'Ana toma 3 de dano' → {"nome": "Ana", "pv": -3, "relativo": true}."""
    amount = int(slots.get("quantidade", 1))
    sign = -1 if slots["sinal"] == "menos" else 1
    field = str(slots["campo"] if "campo" in slots else slots["dano_em"])
    return {"nome": slots["personagem"], field: sign * amount, "relativo": True}


def _alias_at(words: list[str], index: int,
              aliases: list[tuple[list[str], str]]) -> tuple[int, str] | None:
    for alias, key in aliases:
        if words[index:index + len(alias)] == alias:
            return len(alias), key
    return None


def _signed_number(words: list[str], index: int) -> tuple[int | None, int, bool]:
    """'menos 1' → -1, '12' → 12, 'um' → 1; (None, 0, False) when no number is there.

    The last item says whether a sign was said ('mais 2', '+2', 'menos 1').
    """
    sign, used = 1, 0
    if index < len(words) and words[index] in {"menos", "mais"}:
        sign, used = (-1 if words[index] == "menos" else 1), 1
    if index + used >= len(words):
        return None, 0, False
    word = words[index + used]
    if word.isdigit():
        return sign * int(word), used + 1, used == 1
    if word in {"um", "uma"}:
        return sign, used + 1, used == 1
    return None, 0, False


def _answer(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """Options are one word, compared without accents ('exaustão' → 'exaustao'), no digits.

    Words before the option name who answers: 'responder ana exaustao' (hassil cannot split
    two wildcards that touch, so the builder does).
    """
    if "opcao" in slots:
        said = str(slots["opcao"]).split()
        if "personagem" in slots and len(said) > 1 and fold(said[0]) in rules.artigos:
            said = said[1:]  # "a Carla prefere a exaustão"
        option = fold(said[-1])
        if any(char.isdigit() for char in fold(" ".join(said))):
            raise ArgError()  # "pedido 3 rolar" is not an option: another template reads it
        if {fold(word) for word in said} & set(rules.palavras_de_rolar):
            raise ArgError()  # "responder Carla rolar": the companion rolls, not an option
        if len(said) > 1:
            slots["personagem"] = _answerer(said[:-1], slots, rules)
        slots["opcao"] = option
    return slots


def _light(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'a Ana acende a tocha' lights a torch; 'acendam duas tochas' is refused (one per command)."""
    slots.pop("personagem", None)
    count = slots.pop("quantidade", 1)
    if count != 1:
        raise ArgError.because("leitura.uma_luz", final=True, dito=shown,
                               fonte=slots.get("fonte", "tocha"))
    return slots


def _answerer(words: list[str], slots: Mapping[str, Any], rules: HouseRules) -> str:
    """The name said before an option; refused when a name was already said or is too long."""
    limit = rules.wildcard("personagem").palavras
    if "personagem" in slots or len(words) > limit:
        raise ArgError()
    name = " ".join(words).strip(" ,;:.!?")  # "responder Ana, exaustão"
    return _person_name(name, fold(name).split(), rules)


BUILDERS: dict[str, Builder] = {
    "responder": _answer,
    "rolar": _roll,
    "segredo": _secret,
    "marcha": _marching_order,
    "monstro": _monster,
    "personagem": _sheet,
    "luz": _light,
}


# ---------------------------------------------------------------- every reading (strict voice)


@dataclass(frozen=True)
class Reading:
    """One template match of a text and what it would mean (the voice layer filters these)."""

    match: Any  # the hassil RecognizeResult: intent, entities, metadata, literal words matched
    result: ParseResult


def readings(text: str, tables: Tables) -> list[Reading]:
    """Every template match of the text, best first, each with its command or its error.

    `parse` keeps the first match that makes a command; a stricter reader (voice) walks them
    all and keeps the first it trusts. Never raises for any text."""
    compiled = grammar(tables)
    raw = str(text)[: compiled.rules.max_caracteres + 1]
    normalized = normalize(raw)
    shown = _quote(normalized)
    if not normalized.tokens or len(normalized.tokens) > compiled.rules.max_palavras:
        return []
    try:
        matches = sorted(recognize_all(normalized.text, compiled.intents, language=LANGUAGE),
                         key=_rank)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return []
    found: list[Reading] = []
    for match in matches:
        try:
            name, args = _build(match, normalized, compiled, shown)
        except ArgError as error:
            found.append(Reading(match, ParseResult(
                error=error.message(compiled.narration) or _unknown(shown, compiled))))
        except (ValueError, TypeError, KeyError, IndexError):
            found.append(Reading(match, ParseResult(error=_unknown(shown, compiled))))
        else:
            found.append(Reading(match, ParseResult(command=Command(name=name, args=args))))
    return found
