"""The strict voice reading: a recogniser's text is a command only when nothing is guessed.

Vosk's grammar mode builds a bigram model, not a strict grammar, so it can return confident
nonsense. A text is accepted only when a template reads it whole AND
- no value falls outside its list ("terreno deserto" is table talk by voice, not a command);
- every free name ({criatura}, {tipo}, {nome}, {personagem}…) is one of the voice lists of
  tables/voz.yaml or the session's character names;
- it is not a value alone ("floresta"), a command word alone, or a refusal form;
- a short answer ("sim", "não", an option) is accepted only while a prompt waits for it.
Confidence is the listener's business (per word, from the recogniser): this is text only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from hassil.expression import ListReference, Sequence

from companion.commands.normalize import fold
from companion.commands.parse import ParseResult, grammar, readings
from companion.engine.model import Command
from companion.tables import Tables
from companion.voice.config import voice_config

UNK = "[unk]"
HINT = "diga, por exemplo, 'mestre, avançar'"
_OPTION = "opcao"


@dataclass(frozen=True)
class Known:
    """What voice may name: the characters' names and the options prompts wait for."""

    names: frozenset[str] = frozenset()
    waiting: frozenset[str] = frozenset()

    @staticmethod
    def of(names: Iterable[str] = (), waiting: Iterable[str] = ()) -> Known:
        return Known(frozenset(" ".join(fold(n).split()) for n in names),
                     frozenset(" ".join(fold(w).split()) for w in waiting))


def _refused(text: str, why: str | None = None) -> ParseResult:
    shown = " ".join(text.split())[:60]
    reason = f" ({why})" if why else ""
    return ParseResult(error=f"não entendi '{shown}' como comando por voz{reason}; {HINT}")


def read_voice(text: str, tables: Tables, known: Known = Known()) -> ParseResult:
    """The command a recogniser's text means, or why voice does not take it. Never raises."""
    said = " ".join(str(text).split())
    if not said:
        return ParseResult(error=f"não ouvi nada; {HINT}")
    if UNK in said.split():
        return _refused(said, "há palavras fora da lista de frases")
    why: str | None = None
    for reading in readings(said, tables):
        problem = _distrust(reading.match, reading.result, tables, known)
        if problem is None and reading.result.command is not None:
            return ParseResult(command=_clean(reading.result.command))
        why = why or problem
    return _refused(said, why)


def bare_value(sentence: Any) -> bool:
    """A template that is one list value alone ("{terreno}"): table talk, by voice."""
    return _only_a_list(sentence.expression)


def _only_a_list(expression: Any) -> bool:
    if isinstance(expression, ListReference):
        return True
    items = getattr(expression, "items", None)
    return isinstance(expression, Sequence) and items is not None and len(items) == 1 \
        and _only_a_list(items[0])


def _clean(command: Command) -> Command:
    return Command(command.name, dict(command.args), command.actor)


def _distrust(match: Any, result: ParseResult, tables: Tables, known: Known) -> str | None:
    """Why this reading is not trusted by voice (None: trusted)."""
    metadata = match.intent_metadata or {}
    if metadata.get("falta") or metadata.get("recusa"):
        return "comando incompleto"
    if match.intent_sentence is not None and bare_value(match.intent_sentence):
        return "só um valor, sem o comando"
    for entity in match.entities_list:
        if entity.is_wildcard:
            problem = _free_value(entity.name, str(entity.value), tables, known)
            if problem:
                return problem
    return _short_answer(match, result, known)


def _free_value(slot: str, value: str, tables: Tables, known: Known) -> str | None:
    """A wildcard is trusted only when its words are in a voice list (or the party)."""
    config = voice_config(tables)
    said = " ".join(fold(value).split())
    if slot == _OPTION:
        option = _without_article(said, tables)
        return None if option in known.waiting or option in _options(tables) else \
            f"'{value}' não é uma opção de pedido"
    allowed = set(config.free_lists.get(slot, ()))
    if slot == "personagem":
        allowed |= known.names
    if said in allowed or _without_article(said, tables) in allowed:
        return None
    return f"'{value}' não está nas listas da voz"


def _without_article(said: str, tables: Tables) -> str:
    words = said.split()
    articles = set(grammar(tables).rules["artigos"])
    return " ".join(words[1:]) if len(words) > 1 and words[0] in articles else said


def _options(tables: Tables) -> frozenset[str]:
    """Every option a prompt can offer (panico.yaml nomes_opcoes: values and their names)."""
    names = tables.files.get("panico", {}).get("nomes_opcoes", {}) or {}
    return frozenset(" ".join(fold(str(w)).split()) for pair in names.items() for w in pair)


def _short_answer(match: Any, result: ParseResult, known: Known) -> str | None:
    """A bare 'sim'/'não' only while a prompt waits for exactly that answer."""
    command = result.command
    fixed = (getattr(match.intent_data, "slots", None) or {})
    if command is None or command.name != "responder" or _OPTION not in fixed:
        return None
    option = " ".join(fold(str(command.args[_OPTION])).split())
    if option in known.waiting:
        return None
    return f"nenhum pedido espera '{command.args[_OPTION]}'"
