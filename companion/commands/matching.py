"""The one matching step behind every reading: the templates that match a text, best first,
each built into a command (its args checked against argumentos.yaml) or the reason it is not one."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from hassil import recognize_all

from companion.commands import contract
from companion.commands.builders import arguments, treasure_or_item
from companion.commands.context import Known
from companion.commands.grammar import LANGUAGE, Grammar
from companion.commands.normalize import Normalized
from companion.commands.slots import ArgError, SeveralCharacters, slots_of
from companion.tables.vocabulary import Command


# a builder's slip on odd slots: this match makes no command (the readings say "não entendi")
SLIPS = (ValueError, TypeError, KeyError, IndexError)


@dataclass(frozen=True)
class Attempt:
    """One template match and what it makes: a command, or the reason it is not one (both
    None: a builder slipped on it)."""

    match: Any  # the hassil RecognizeResult: intent, entities, metadata, literal words matched
    command: Command | None = None
    refusal: ArgError | None = None


def attempts(normalized: Normalized, compiled: Grammar, shown: str,
             context: Known | None = None) -> Iterator[Attempt]:
    """Every template match of the text, best first, each built when it is reached (with what
    the context says: a bare "sim" is an answer only while a prompt waits for it).

    The matching itself runs now (its errors are raised here); a builder's slip becomes an
    Attempt with neither command nor refusal, anything else is raised while iterating."""
    ranked = sorted(recognize_all(normalized.text, compiled.intents, language=LANGUAGE),
                    key=rank)
    return (attempt(match, normalized, compiled, shown, context) for match in ranked)


def attempt(match: Any, normalized: Normalized, compiled: Grammar, shown: str,
            context: Known | None = None) -> Attempt:
    """One match built into a command, or the reason it is not one."""
    try:
        name, args = build(match, normalized, compiled, shown, context)
    except ArgError as refusal:
        return Attempt(match, refusal=refusal)
    except SLIPS:
        return Attempt(match)
    return Attempt(match, command=Command(name=name, args=args))


def rank(result: Any) -> tuple[int, int, int, str]:
    """Less text swallowed by wildcards first, then fewer wildcards, more literal words."""
    wildcards = [e for e in result.entities_list if e.is_wildcard]
    return (sum(len(e.text or "") for e in wildcards), len(wildcards),
            -result.text_chunks_matched, result.intent.name)


def build(result: Any, normalized: Normalized, compiled: Grammar,
          shown: str, context: Known | None = None) -> tuple[str, dict[str, Any]]:
    """Canonical command name and args from one hassil match."""
    rules = compiled.rules
    metadata = result.intent_metadata or {}
    _refuse_unawaited_answer(result, context, shown)
    if metadata.get("falta"):
        raise ArgError.because("leitura.falta", o_que=str(metadata["falta"]), dito=shown,
                               uso=compiled.usage.get(result.intent.name, result.intent.name))
    if metadata.get("recusa"):
        raise ArgError.because("leitura.recusa", final=True, dito=shown,
                               motivo=str(metadata["recusa"]))
    name = result.intent.name
    try:
        slots = slots_of(result, normalized, rules)
        _refuse_outside_lists(result, slots, compiled)
        if metadata.get("tesouro_ou_item"):
            name = treasure_or_item(slots, rules)
        args = arguments(name, slots, rules, shown)
    except SeveralCharacters as several:
        raise _one_at_a_time(several, name, compiled, shown) from None
    try:
        contract.check(compiled.contract, compiled.dice_limits, compiled.narration, name, args)
    except contract.ContractBroken as broken:
        raise ArgError.because("leitura.contrato", final=True, dito=shown,
                               problema=str(broken)) from None
    return name, args


# a template that gives the option itself ("sim", "não" alone): an answer, not a command
ANSWER = "opcao"


def bare_answer(result: Any) -> str | None:
    """The option a template gives by itself ('sim' → "sim"), None for any other template."""
    fixed = getattr(result.intent_data, "slots", None) or {}
    return str(fixed[ANSWER]) if ANSWER in fixed else None


def _refuse_unawaited_answer(result: Any, context: Known | None, shown: str) -> None:
    """A bare 'sim'/'não' is an answer only while a prompt waits for it (never without a
    context: `companion parse` alone knows of no prompt)."""
    answer = bare_answer(result)
    if answer is not None and (context is None or not context.waits_for(answer)):
        raise ArgError.because("leitura.so_com_pedido", dito=shown)


def _refuse_outside_lists(result: Any, slots: dict[str, Any], compiled: Grammar) -> None:
    """'terreno deserto': a value said outside its list is refused with the list's values,
    in the engine's own words (frases.yaml mesa.fora_da_lista)."""
    for entity in result.entities_list:
        spec = compiled.rules.fora_da_lista.get(entity.name)
        if entity.is_wildcard and spec is not None:
            raise ArgError(spec.recusa, params={spec.valor: slots[entity.name],
                                                spec.valores: list(compiled.values[entity.name])})


def _one_at_a_time(several: SeveralCharacters, name: str, compiled: Grammar,
                   shown: str) -> ArgError:
    """'pânico Ana e Carla' → say it once per character ('pânico Ana', depois 'pânico Carla')."""
    if several.names and several.said in shown:
        return ArgError.because("leitura.um_por_vez_exemplos", final=True, dito=shown,
                                exemplos=[shown.replace(several.said, who, 1)
                                          for who in several.names])
    return ArgError.because("leitura.um_por_vez", dito=shown,
                            uso=compiled.usage.get(name, name))
