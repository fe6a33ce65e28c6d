"""The recogniser's phrase list, expanded from the same hassil templates as the chat.

Every template is walked so that each of its alternatives, optional parts and list values is
said at least once (a covering expansion, not the full product: a template has as many phrases
as its widest choice). Wildcard slots are filled from the voice lists of tables/voz.yaml
(creatures, treasure, items, spells, names) and the session's character names; a template
whose wildcard has no list (free reasons, marching orders, out-of-list values) is left out,
and so are the forms the strict voice reading refuses (a value alone, "sim"/"não", a command
word alone, a refusal). Numbers come out in words and words with their accents.

Kept small as the lists grow: a long list of names is said whole in its first template and by
turns in the others (voz.yaml `nomes_por_modelo`), the fillers of frases.yaml are said around
a few everyday commands (voz.yaml `enchimentos`), and the names a campaign taught its lists
(companion/voice/learned.py) join them.
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
from companion.tables.files import Tables
from companion.voice.config import VoiceConfig, voice_config
from companion.voice.learned import Learned, by_list
from companion.voice.strict_reading import bare_value, prompt_options as _options, read_voice
from companion.voice.spoken import longest_key, say

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
    raise TypeError(f"unknown hassil expression: {expression!r}")


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
    raise TypeError(f"unknown hassil expression: {expression!r}")


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


def spoken_lists(tables: Tables, names: Iterable[str] = (),
                 learned: Mapping[str, Sequence[str]] | None = None) -> dict[str, list[str]]:
    """Every list the templates use, as folded texts; wildcards from the voice lists, the
    names the campaign taught them first."""
    config = voice_config(tables)
    compiled = grammar(tables)
    lists: dict[str, list[str]] = {}
    for name, slot_list in compiled.intents.slot_lists.items():
        texts = _list_texts(slot_list, config)
        if texts is None:
            texts = [*(learned or {}).get(name, ()), *config.free_lists.get(name, ())]
        lists[name] = list(dict.fromkeys(" ".join(fold(t).split()) for t in texts
                                     if fold(t).strip()))
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
                     with_prompts: bool = False,
                     learned: Mapping[str, Sequence[str]] | None = None) -> Iterator[Phrase]:
    """(command, folded phrase) for every template the voice reading can accept; with
    `with_prompts`, also the answers that are read only while a prompt waits for them.

    A long list of names (creatures, spells, items: voz.yaml `listas`, and what the campaign
    taught them) is said whole in the first template that uses it; every other template says
    only `nomes_por_modelo` of its names, taking turns: each name is heard once at least, and
    the list grows with the names, not with names × templates."""
    config = voice_config(tables)
    compiled = grammar(tables)
    lists = spoken_lists(tables, names, learned)
    turns: dict[str, int] = {}  # long list → templates that already said it
    name_lists = {name for name in config.free_lists if name != "personagem"}
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
                said = _taking_turns(lists, used & name_lists, turns, config.names_per_template)
                for index in range(width(sentence.expression, said, rules)):
                    text = " ".join(word for word in pick(sentence.expression, index, said,
                                                          rules).split()
                                    if any(ch.isalnum() for ch in word))  # no "," said
                    if not text or any(bad in f" {text} " for bad in config.avoid):
                        continue
                    if with_prompts or not _needs_a_prompt(intent.name, text, config, used):
                        yield Phrase(intent.name, text)


def _taking_turns(lists: Mapping[str, Sequence[str]], used: set[str], turns: dict[str, int],
                  each: int) -> Mapping[str, Sequence[str]]:
    """The lists one template says: a long list of names (of `used`) whole the first time,
    then `each` of its names at a time, where the previous template stopped."""
    said = dict(lists)
    for name in sorted(used):
        values = lists.get(name, ())
        if len(values) <= each:
            continue
        turn = turns.get(name, 0)
        turns[name] = turn + 1
        if turn:
            start = ((turn - 1) * each) % len(values)
            said[name] = [*values[start:], *values[:start]][:each]
    return said


def filler_phrases(tables: Tables) -> Iterator[Phrase]:
    """Each filler of frases.yaml `skip_words` ("bora", "por favor", "então") said before and
    after a few everyday commands (voz.yaml `enchimentos`): Vosk hears only the words of its
    list and learns from these where fillers go (its grammar is a bigram model, so a filler
    seen beside some commands can be heard beside any), without one copy of the list per
    filler."""
    config = voice_config(tables)
    fillers = [f for f in dict.fromkeys(" ".join(fold(w).split())
                                        for w in grammar(tables).intents.skip_words)
               if f and f != config.wake_word and not any(ch.isdigit() for ch in f)]
    anchors = [(read_voice(said, tables).command, said) for said in config.filler_anchors]
    anchors = [(command.name, said) for command, said in anchors if command is not None]
    each = config.filler_phrases
    for index, filler in enumerate(fillers):
        for turn in range(min(each, 2 * len(anchors))):
            command, said = anchors[(index * each // 2 + turn // 2) % len(anchors)]
            yield Phrase(command, f"{filler} {said}" if turn % 2 == 0 else f"{said} {filler}")


def voice_phrases(tables: Tables, names: Iterable[str] = (), with_prompts: bool = False,
                  learned: Iterable[Learned] = ()) -> list[Phrase]:
    """The phrases in spoken form (accents, numbers in words), each once, in template order;
    with the names the campaign taught the voice lists (`learned`)."""
    learned = list(learned)
    accents = {**_typed_accents(learned), **voice_config(tables).accents}
    longest = longest_key(accents)
    seen: dict[str, Phrase] = {}
    for phrase in [*template_phrases(tables, names, with_prompts, by_list(learned)),
                   *filler_phrases(tables)]:
        spoken = say(phrase.text, accents, longest)
        seen.setdefault(spoken, Phrase(phrase.command, spoken))
    return list(seen.values())


def _typed_accents(learned: Iterable[Learned]) -> dict[str, str]:
    """The accents of the names as the GM typed them ("Górgona" is said "górgona"): words of
    four letters or more (a short "é" must not turn every "e" of the list into "é")."""
    return {fold(word): word for name in learned for word in name.shown.lower().split()
            if fold(word) != word and fold(word).isalpha() and len(word) >= 4}


def phrase_list(tables: Tables, names: Iterable[str] = (), with_prompts: bool = False,
                learned: Iterable[Learned] = ()) -> list[str]:
    """What `companion voz frases` prints; the listener gives the recogniser the list with
    `with_prompts` (plus the answers read only while a prompt waits: "sim", "deu doze")."""
    return [phrase.text for phrase in voice_phrases(tables, names, with_prompts, learned)]


def grammar_words(phrases: Iterable[str]) -> list[str]:
    """Every word of the phrase list, sorted."""
    return sorted({word for phrase in phrases for word in phrase.split()})
