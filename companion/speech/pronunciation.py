"""Spoken words: a text as the screen shows it → the words a listener takes in.

A pure step, applied where a text is handed to a speaker (the laptop's voice, a page's Web
Speech voice, `companion falar`). What is said in place of what is shown lives in
tables/fala.yaml `pronuncia`, in this order:

1. `trocas`: rewrites, each a regular expression (`padrao`) and what is said in its place
   (`fala`, a Jinja2 template that sees the match's named groups, every group also as `g1`,
   `g2`…); the filters are the narration's (`plural`, `numero`…) and `extenso` (a number in
   words, from num2words in the language `numeros` names);
2. `palavras`: whole words (case as shown) → as said ("PV" → "pontos de vida");
3. `simbolos`: what is left of the symbols, replaced as text (" · " → ", ").

Nothing here knows a Portuguese word: every word said comes from the table.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from jinja2 import Environment, StrictUndefined, Template, TemplateError
from num2words import num2words

from companion.tables.narration import counted, number_text, plural_word
from companion.tables.rulebook import InvalidValue


@dataclass(frozen=True)
class Rewrite:
    """One rewrite: a pattern on the shown text and the template said in its place."""

    padrao: str
    fala: str

    def validate(self) -> None:
        try:
            re.compile(self.padrao)
        except re.error as error:
            raise InvalidValue("padrao", "validacao.padrao_da_fala",
                               {"motivo": str(error)}) from None
        try:
            _environment("pt_BR").parse(self.fala)
        except TemplateError as error:
            raise InvalidValue("fala", "validacao.padrao_da_fala",
                               {"motivo": str(error)}) from None


@dataclass(frozen=True)
class Pronunciation:
    """tables/fala.yaml `pronuncia`, typed."""

    numeros: str
    trocas: tuple[Rewrite, ...]
    palavras: Mapping[str, str]
    simbolos: Mapping[str, str]

    def validate(self) -> None:
        try:
            num2words(1, lang=self.numeros)
        except NotImplementedError:
            raise InvalidValue("numeros", "validacao.idioma_dos_numeros",
                               {"idioma": self.numeros}) from None


@dataclass(frozen=True)
class SpokenRules:
    """The compiled rules: each rewrite's pattern and template, the words' pattern."""

    rewrites: tuple[tuple[re.Pattern[str], Template], ...]
    words: Mapping[str, str]
    words_pattern: re.Pattern[str] | None
    symbols: tuple[tuple[str, str], ...]


def _in_words(language: str):  # type: ignore[no-untyped-def]
    def in_words(value: object) -> str:
        text = str(value).strip()
        try:
            number: float = int(text)
        except ValueError:
            number = float(text.replace(",", "."))
        return str(num2words(number, lang=language))
    return in_words


@lru_cache(maxsize=8)
def _environment(language: str) -> Environment:
    environment = Environment(undefined=StrictUndefined, autoescape=False)
    environment.filters.update({"extenso": _in_words(language), "numero": number_text,
                                "plural": plural_word, "contagem": counted})
    return environment


def compile_rules(data: Pronunciation) -> SpokenRules:
    """The table's rules, compiled once (the piece's validate() already checked them)."""
    environment = _environment(data.numeros)
    rewrites = tuple((re.compile(rule.padrao), environment.from_string(rule.fala))
                     for rule in data.trocas)
    words = dict(data.palavras)
    pattern = None
    if words:
        alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
        pattern = re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")
    return SpokenRules(rewrites, words, pattern, tuple(data.simbolos.items()))


def _said(template: Template, match: re.Match[str]) -> str:
    groups = {f"g{number}": value or "" for number, value in enumerate(match.groups(), start=1)}
    named = {name: value or "" for name, value in match.groupdict().items()}
    return template.render(**groups, **named)


def spoken_words(text: str, rules: SpokenRules) -> str:
    """The text as it is said aloud: rewrites, then whole words, then symbols; one space
    between words."""
    for pattern, template in rules.rewrites:
        text = pattern.sub(lambda match, t=template: _said(t, match), text)
    if rules.words_pattern is not None:
        text = rules.words_pattern.sub(lambda match: rules.words[match.group(0)], text)
    for shown, said in rules.symbols:
        text = text.replace(shown, said)
    return " ".join(text.split())
