"""A joining player's name: what the character id keeps of it, and what it looks like.

A character's id is its name in plain ASCII (companion.engine.characters.slug): a letter with no
ASCII form (Cyrillic `о`, `李`, an emoji, a zero-width space) is silently dropped from it, so
`Dоra` would become a character `dra` shown as "Dоra" beside Dora. A name with such a letter
is refused (`dropped`). Names are compared by their confusable skeleton (`skeleton`, after
Unicode's UTS #39 idea, for the letters a Brazilian table meets): Cyrillic and Greek look-alikes
of Latin letters, digits and bars that read as letters (`1`/`l`/`i`/`I`/`|`, `0`/`o`, `5`/`s`),
`rn`/`m`, `vv`/`w`, accents off, case folded, punctuation at either end dropped ("Ana." is
"Ana"); a new name whose skeleton is an existing character's, under another id, is an
impersonation.
"""
from __future__ import annotations

import unicodedata

from companion.engine.characters import slug

# Cyrillic and Greek letters that look like Latin ones, and the Latin letter they pass for
_LOOKALIKES = str.maketrans(
    "аАвВеЕкКмМнНоОрРсСтТуУхХіІјЈѕЅԁһӏ"
    "αΑβΒεΕζΖηΗιΙκΚμΜνΝοΟρΡτΤυΥχΧ",
    "aABBeEkKMMHHoOpPcCTTyYxXiIjJsSdhl"
    "aABBeEZZnHiIkKuMvNoOpPtTuYxX")
# after case folding: a lowercase `i` reads as `l` beside a `1` ("L1a", "Lia", "Lla" one name)
_DIGITS_AND_BARS = str.maketrans({"0": "o", "1": "l", "|": "l", "i": "l", "5": "s"})
_SEQUENCES = (("rn", "m"), ("vv", "w"))


def normal(name: str) -> str:
    """The name as the table keeps it: NFC, inner spaces single."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def dropped(name: str) -> str:
    """The characters of the name its id would silently drop (spaces aside), each once."""
    lost = [ch for ch in normal(name) if not ch.isspace() and not slug(ch)]
    return "".join(dict.fromkeys(lost))


def skeleton(name: str) -> str:
    """What the name looks like: look-alikes to one letter, accents off, case folded."""
    text = normal(name).translate(_LOOKALIKES)
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))
    text = text.casefold().translate(_DIGITS_AND_BARS)
    for sequence, letter in _SEQUENCES:
        text = text.replace(sequence, letter)
    return " ".join(_without_edge_punctuation(text).split())


def _without_edge_punctuation(text: str) -> str:
    """The text without punctuation (Unicode's P* categories) or spaces at either end."""
    start, end = 0, len(text)
    while start < end and (text[start].isspace()
                           or unicodedata.category(text[start]).startswith("P")):
        start += 1
    while end > start and (text[end - 1].isspace()
                           or unicodedata.category(text[end - 1]).startswith("P")):
        end -= 1
    return text[start:end]
