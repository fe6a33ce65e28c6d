"""Turn what the GM typed or said into the plain text the sentence templates are written in.

Lowercase, no accents, no punctuation, dice notation split into words ("2d6+1" → "2 d 6 mais
1"), and Portuguese number words as digits ("vinte e três" → "23"). A lone "um"/"uma" stays a
word — at the table it is far more often an article ("acender uma tocha") than a number — except
at the end of the text or after "mais"/"menos" ("responder um", "1d6 mais um").
Every word of the result remembers which words of the original it came from, so a name can be
given back with its accents and capitals ("joao" → "João").
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

UNITS: dict[str, int] = {
    "zero": 0, "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5,
    "seis": 6, "sete": 7, "oito": 8, "nove": 9,
}
TEENS: dict[str, int] = {
    "dez": 10, "onze": 11, "doze": 12, "treze": 13, "catorze": 14, "quatorze": 14, "quinze": 15,
    "dezesseis": 16, "dezasseis": 16, "dezessete": 17, "dezassete": 17, "dezoito": 18,
    "dezenove": 19, "dezanove": 19,
}
TENS: dict[str, int] = {
    "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "sessenta": 60,
    "setenta": 70, "oitenta": 80, "noventa": 90,
}
HUNDREDS: dict[str, int] = {
    "cem": 100, "cento": 100, "duzentos": 200, "duzentas": 200, "trezentos": 300,
    "trezentas": 300, "quatrocentos": 400, "quatrocentas": 400, "quinhentos": 500,
    "quinhentas": 500, "seiscentos": 600, "seiscentas": 600, "setecentos": 700,
    "setecentas": 700, "oitocentos": 800, "oitocentas": 800, "novecentos": 900,
    "novecentas": 900,
}
THOUSAND = "mil"
ARTICLES = frozenset({"um", "uma"})
SIGN_WORDS = frozenset({"mais", "menos"})

# After a word of this place value, only smaller words may follow in the same number.
_PLACE: dict[str, int] = {
    **{w: 1 for w in UNITS}, **{w: 1 for w in TEENS}, **{w: 10 for w in TENS},
    **{w: 100 for w in HUNDREDS},
}
_VALUE: dict[str, int] = {**UNITS, **TEENS, **TENS, **HUNDREDS}

_LETTER_DIGIT = re.compile(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])")
_SIGNED = re.compile(r"\+|(?<![a-z])-(?=\d)|(?<=\d)-")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Token:
    """One normalized word and the indexes of the original words it came from."""

    text: str
    sources: tuple[int, ...]


@dataclass(frozen=True)
class Normalized:
    """The normalized text, its words, and the original words (as typed, split on spaces)."""

    original: tuple[str, ...]
    tokens: tuple[Token, ...]

    @property
    def text(self) -> str:
        return " ".join(token.text for token in self.tokens)

    def restore(self, phrase: str) -> str:
        """The original words behind a normalized phrase ("joao" → "João"); else the phrase."""
        words = phrase.split()
        if not words:
            return phrase
        texts = [token.text for token in self.tokens]
        for start in range(len(texts) - len(words) + 1):
            if texts[start:start + len(words)] == words:
                covered = [i for token in self.tokens[start:start + len(words)]
                           for i in token.sources]
                raw = " ".join(self.original[min(covered):max(covered) + 1])
                return raw.strip(" \t.,;:!?¡¿\"'()[]{}…-–—")
        return phrase


def fold(text: str) -> str:
    """Lowercase ASCII without accents ("Pântano" → "pantano"); other symbols become spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.casefold()


def _split_word(word: str) -> list[str]:
    """One original word → its normalized pieces: signs as words, letters apart from digits."""
    text = _SIGNED.sub(lambda m: " mais " if m.group() == "+" else " menos ", fold(word))
    text = _NOT_WORD.sub(" ", text)
    return _LETTER_DIGIT.sub(" ", text).split()


def _joins(previous: str | None, word: str, total_below_thousand: int) -> bool:
    """Can `word` continue a number whose last number word was `previous`?"""
    if word == THOUSAND:
        return 0 < total_below_thousand < 1000 or previous is None
    if previous is None:
        return True
    if previous == THOUSAND:
        return True
    return _VALUE[word] < _PLACE[previous]


def _read_number(tokens: list[Token], start: int) -> tuple[int, int] | None:
    """The number spelled from tokens[start]: (value, tokens used), or None."""
    total, group, used, previous = 0, 0, 0, None
    index = start
    while index < len(tokens):
        word = tokens[index].text
        step = 1
        if word == "e" and previous is not None and index + 1 < len(tokens):
            word = tokens[index + 1].text
            step = 2
        if word != THOUSAND and word not in _VALUE:
            break
        if not _joins(previous, word, group):
            break
        if word == THOUSAND:
            total += (group or 1) * 1000
            group = 0
        else:
            group += _VALUE[word]
        previous = word
        index += step
        used = index - start
    if used == 0:
        return None
    return total + group, used


def _is_article(tokens: list[Token], index: int) -> bool:
    """A lone 'um'/'uma' is an article unless it ends the text or follows 'mais'/'menos'."""
    if tokens[index].text not in ARTICLES or index == len(tokens) - 1:
        return False
    return index == 0 or tokens[index - 1].text not in SIGN_WORDS


def _numbers_to_digits(tokens: list[Token]) -> list[Token]:
    """Replace spelled-out numbers by digits, leaving a lone article 'um'/'uma' alone."""
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        found = _read_number(tokens, index)
        if found is None or (found[1] == 1 and _is_article(tokens, index)):
            out.append(tokens[index])
            index += 1
            continue
        value, used = found
        sources = tuple(sorted({i for t in tokens[index:index + used] for i in t.sources}))
        out.append(Token(str(value), sources))
        index += used
    return out


def _clean_controls(text: str) -> str:
    """Control and format characters (and lone surrogates) become spaces."""
    return "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)


def normalize(text: str) -> Normalized:
    """Normalize any text; never raises."""
    original = tuple(_clean_controls(str(text)).split())
    tokens = [Token(piece, (index,)) for index, word in enumerate(original)
              for piece in _split_word(word)]
    return Normalized(original=original, tokens=tuple(_numbers_to_digits(tokens)))
