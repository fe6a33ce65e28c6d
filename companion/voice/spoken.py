"""Grammar words as a recogniser says them: accents back on, numbers in words.

The templates are written folded ("avancar", "2"); Vosk's Portuguese models speak lower case
with accents ("avançar") and numbers in words ("dois"). `say` turns one into the other with the
accent table of tables/voz.yaml; the chat's normalizer turns it back when reading.
"""
from __future__ import annotations

from typing import Mapping

_UNITS = ["zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove",
          "dez", "onze", "doze", "treze", "catorze", "quinze", "dezesseis", "dezessete",
          "dezoito", "dezenove"]
_TENS = ["", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta",
         "noventa"]
_HUNDREDS = ["", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos",
             "setecentos", "oitocentos", "novecentos"]


def number_words(value: int) -> str:
    """Brazilian Portuguese words for 0 ≤ value < 1 000 000 ("vinte e três", "cem")."""
    if value < 0 or value >= 1_000_000:
        raise ValueError(f"número fora do alcance: {value}")
    if value < 20:
        return _UNITS[value]
    if value < 100:
        tens, unit = divmod(value, 10)
        return _TENS[tens] + (f" e {_UNITS[unit]}" if unit else "")
    if value < 1000:
        if value == 100:
            return "cem"
        hundreds, rest = divmod(value, 100)
        return _HUNDREDS[hundreds] + (f" e {number_words(rest)}" if rest else "")
    thousands, rest = divmod(value, 1000)
    head = "mil" if thousands == 1 else f"{number_words(thousands)} mil"
    if not rest:
        return head
    joiner = " e " if rest < 100 or rest % 100 == 0 else " "
    return head + joiner + number_words(rest)


def longest_key(accents: Mapping[str, str]) -> int:
    """How many words the longest key of an accent table has."""
    return max((len(key.split()) for key in accents), default=1)


def say(folded: str, accents: Mapping[str, str], longest: int | None = None) -> str:
    """'avancar 2 d 6' → 'avançar dois d seis'; 'qual e' → 'qual é' (longest key first).

    Keys of the accent table may be several words, for a word whose accent depends on its
    neighbour ("e"/"é"); words not in the table stay as they are."""
    words = folded.split()
    longest = longest_key(accents) if longest is None else longest  # give it for many phrases
    out: list[str] = []
    index = 0
    while index < len(words):
        for size in range(min(longest, len(words) - index), 0, -1):
            key = " ".join(words[index:index + size])
            if size > 1 and key in accents:
                out.append(accents[key])
                index += size
                break
        else:
            word = words[index]
            out.append(number_words(int(word)) if word.isdigit() else accents.get(word, word))
            index += 1
    return " ".join(out)
