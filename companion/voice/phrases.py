"""The recogniser's phrase list, expanded from the same hassil templates as the chat.

Every template is walked so that each of its alternatives, optional parts and list values is
said at least once (a covering expansion, not the full product: a template has as many phrases
as its widest choice). Wildcard slots are filled from the voice lists of tables/voz.yaml
(creatures, treasure, items, spells, names) and the session's character names; a template
whose wildcard has no list (free reasons, marching orders, out-of-list values) is left out,
and so are the forms the strict voice reading refuses (a value alone, "sim"/"não", a command
word alone, a refusal). Numbers come out in words and words with their accents.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

from hassil import RangeSlotList, TextSlotList
from hassil.expression import (Alternative, Expression, ListReference, Permutation,
                               RuleReference, Sentence, TextChunk)
from hassil.expression import Sequence as Seq

from companion.commands.normalize import fold
from companion.commands.grammar import grammar
from companion.tables import Tables
from companion.voice.config import VoiceConfig, voice_config
from companion.voice.reading import bare_value, prompt_options as _options
from companion.voice.spoken import say

UNK = "[unk]"


@dataclass(frozen=True)
class Phrase:
    """One phrase of the list and the command template it was said from."""

    command: str
    text: str


def width(expression: Expression, lists: Mapping[str, Sequence[str]],
          rules: Mapping[str, Sentence]) -> int:
    """How many phrases it takes to say every choice of this expression once."""
    if isinstance(expression, TextChunk):
        return 1
    if isinstance(expression, ListReference):  # a closed list with no value yet: no way
        return len(lists[expression.list_name]) if expression.list_name in lists else 1
    if isinstance(expression, RuleReference):
        return width(rules[expression.rule_name].expression, lists, rules)
    if isinstance(expression, Alternative):
        return sum(width(item, lists, rules) for item in expression.items)
    if isinstance(expression, (Seq, Permutation)):
        widths = [width(item, lists, rules) for item in expression.items]
        return 0 if 0 in widths else max(widths, default=1)
    raise TypeError(f"expressão desconhecida: {expression!r}")


def pick(expression: Expression, index: int, lists: Mapping[str, Sequence[str]],
         rules: Mapping[str, Sentence]) -> str:
    """The index-th way of saying the expression (cycling through every choice)."""
    if isinstance(expression, TextChunk):
        return expression.text
    if isinstance(expression, ListReference):
        values = lists[expression.list_name]
        return values[index % len(values)]
    if isinstance(expression, RuleReference):
        return pick(rules[expression.rule_name].expression, index, lists, rules)
    if isinstance(expression, Alternative):
        index %= width(expression, lists, rules)
        for item in expression.items:
            size = width(item, lists, rules)
            if index < size:
                return pick(item, index, lists, rules)
            index -= size
    if isinstance(expression, (Seq, Permutation)):
        return " ".join(pick(item, index, lists, rules) for item in expression.items)
    raise TypeError(f"expressão desconhecida: {expression!r}")


def _list_texts(slot_list: Any, config: VoiceConfig) -> list[str] | None:
    """The folded texts a list can be said as (None: a wildcard with no voice list)."""
    if isinstance(slot_list, RangeSlotList):
        values = [n for n in config.numbers if slot_list.start <= n <= slot_list.stop]
        return [str(n) for n in values] or [str(slot_list.start)]
    if isinstance(slot_list, TextSlotList):
        texts: list[str] = []
        for value in slot_list.values:
            expression = value.text_in
            size = width(expression, {}, {})
            texts += [pick(expression, i, {}, {}) for i in range(size)]
        return texts
    return None


def spoken_lists(tables: Tables, names: Iterable[str] = ()) -> dict[str, list[str]]:
    """Every list the templates use, as folded texts; wildcards from the voice lists."""
    config = voice_config(tables)
    compiled = grammar(tables)
    lists: dict[str, list[str]] = {}
    for name, slot_list in compiled.intents.slot_lists.items():
        texts = _list_texts(slot_list, config)
        if texts is None:
            texts = list(config.free_lists.get(name, ()))
        lists[name] = [" ".join(fold(t).split()) for t in texts if fold(t).strip()]
    people = [" ".join(fold(n).split()) for n in names if fold(n).strip()]
    lists["personagem"] = list(dict.fromkeys(people or lists.get("personagem", [])))
    lists["ordem"] = _orders(lists["personagem"])
    lists["opcao"] = sorted(_options(tables))
    for name, slot_list in compiled.intents.slot_lists.items():
        if isinstance(slot_list, RangeSlotList) and slot_list.start <= 2 <= slot_list.stop:
            lists[name] = [*lists[name], "duas"]  # "duas poções": the feminine is said too
    # a closed list stays even when empty (the regions of a campaign that named none: the
    # templates that name one say nothing); a wildcard without voice texts goes
    return {name: texts for name, texts in lists.items()
            if texts or isinstance(compiled.intents.slot_lists.get(name), TextSlotList)}


def _orders(people: list[str]) -> list[str]:
    """Marching orders said with the names: 'ana bia e caio', 'bia e caio'…"""
    if len(people) < 2:
        return []
    orders = []
    for index, first in enumerate(people):
        second = people[(index + 1) % len(people)]
        third = people[(index + 2) % len(people)]
        orders.append(f"{first} {second} e {third}" if third not in (first, second)
                      else f"{first} e {second}")
    return orders


def _refused_form(sentence: Sentence, data: Any, config: VoiceConfig) -> bool:
    """A form the voice reading never accepts: a value alone, 'sim'/'não' alone."""
    if bare_value(sentence):
        return True  # "{terreno}": a bare value is table talk by voice
    return "opcao" in (data.slots or {})  # a bare "sim"/"não": only while a prompt waits


def _needs_a_prompt(command: str, text: str, config: VoiceConfig, used: set[str]) -> bool:
    """'deu 12', 'Ana tirou 12', 'errei': read by voice only while a prompt waits (or never)."""
    if text in config.chat_only:
        return True
    if command != "responder":
        return False
    words = text.split()
    return words[0] in config.value_only_with_prompt or (
        "opcao" not in used and not set(words) & config.answer_words)


def template_phrases(tables: Tables, names: Iterable[str] = (),
                     with_prompts: bool = False) -> Iterator[Phrase]:
    """(command, folded phrase) for every template the voice reading can accept; with
    `with_prompts`, also the answers that are read only while a prompt waits for them."""
    config = voice_config(tables)
    compiled = grammar(tables)
    lists = spoken_lists(tables, names)
    for intent in compiled.intents.intents.values():
        for data in intent.data:
            metadata = data.metadata or {}
            if metadata.get("falta") or metadata.get("recusa") or metadata.get("amostra") is False:
                continue
            rules = {**compiled.intents.expansion_rules, **data.expansion_rules}
            for sentence in data.sentences:
                used = set(sentence.list_names(rules))
                if used - set(lists) or (_refused_form(sentence, data, config)
                                         and not (with_prompts and "opcao" in (data.slots or {}))):
                    continue  # a wildcard with no voice list, or a form voice refuses
                for index in range(width(sentence.expression, lists, rules)):
                    text = " ".join(word for word in pick(sentence.expression, index, lists,
                                                          rules).split()
                                    if any(ch.isalnum() for ch in word))  # no "," said
                    if not text or any(bad in f" {text} " for bad in config.avoid):
                        continue
                    if with_prompts or not _needs_a_prompt(intent.name, text, config, used):
                        yield Phrase(intent.name, text)


def voice_phrases(tables: Tables, names: Iterable[str] = (),
                  with_prompts: bool = False) -> list[Phrase]:
    """The phrases in spoken form (accents, numbers in words), each once, in template order."""
    accents = voice_config(tables).accents
    seen: dict[str, Phrase] = {}
    for phrase in template_phrases(tables, names, with_prompts):
        spoken = say(phrase.text, accents)
        seen.setdefault(spoken, Phrase(phrase.command, spoken))
    return list(seen.values())


def phrase_list(tables: Tables, names: Iterable[str] = (),
                with_prompts: bool = False) -> list[str]:
    """What `companion voz frases` prints; the listener gives the recogniser the list with
    `with_prompts` (plus the answers read only while a prompt waits: "sim", "deu doze")."""
    return [phrase.text for phrase in voice_phrases(tables, names, with_prompts)]


def grammar_words(phrases: Iterable[str]) -> list[str]:
    """Every word of the phrase list, sorted."""
    return sorted({word for phrase in phrases for word in phrase.split()})
