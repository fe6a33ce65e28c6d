"""What a reading may depend on besides the text and the rules: the names that exist and the
answers prompts wait for. Reading stays a pure function of (text, rules, context); without a
context (`companion parse` alone) nothing waits, and a bare "sim" is not a command."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Mapping

from companion.commands.normalize import fold


def _said(text: str) -> str:
    return _folded(str(text))


@lru_cache(maxsize=4096)
def _folded(text: str) -> str:
    """A name or an option as readings compare it (the same few, folded every command)."""
    return " ".join(fold(text).split())


@dataclass(frozen=True)
class Known:
    """The characters' names, the options prompts wait for, whether a roll waits, and the
    names the campaign taught the voice lists (list name → folded names)."""

    names: frozenset[str] = frozenset()
    waiting: frozenset[str] = frozenset()
    roll_waiting: bool = False  # a prompt waits for a die's value
    # No session to ask (`parse --voz` alone): any word that can be a character's name is one
    # (the recogniser itself only ever says the session's names, given in its phrase list).
    any_name: bool = False
    learned: frozenset[tuple[str, str]] = frozenset()  # (list, folded name) the GM typed

    @staticmethod
    def of(names: Iterable[str] = (), waiting: Iterable[str] = (),
           roll_waiting: bool = False, any_name: bool = False,
           learned: Mapping[str, Iterable[str]] | None = None) -> Known:
        return Known(frozenset(_said(n) for n in names), frozenset(_said(w) for w in waiting),
                     roll_waiting, any_name,
                     frozenset((name, _said(value)) for name, values in (learned or {}).items()
                               for value in values))

    def with_learned(self, learned: Mapping[str, Iterable[str]]) -> Known:
        """The same context, with the names a campaign taught its voice lists."""
        return replace(self, learned=Known.of(learned=learned).learned)

    def learned_in(self, list_name: str) -> frozenset[str]:
        """The names the campaign taught this voice list."""
        return frozenset(value for name, value in self.learned if name == list_name)

    def waits_for(self, answer: str) -> bool:
        """Does a prompt wait for this answer ('sim', 'nao')?"""
        return _said(answer) in self.waiting
