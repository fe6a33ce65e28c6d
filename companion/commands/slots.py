"""A match's slots: list values as they are, free slots (names, creatures, treasure) given
back as the GM wrote them and cleaned by the `mesa` rules; why a slot makes no command."""
from __future__ import annotations

from typing import Any, Mapping

from companion.commands.normalize import Normalized, fold
from companion.commands.sentences import HouseRules
from companion.tables.narration import Narrator


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


def slots_of(result: Any, normalized: Normalized, rules: HouseRules) -> dict[str, Any]:
    """Every slot of a match: list values as they are, wildcards cleaned."""
    slots: dict[str, Any] = {}
    for entity in result.entities_list:
        if entity.is_wildcard:
            slots[entity.name] = _clean_wildcard(entity.name, str(entity.value), normalized,
                                                 rules)
        else:
            slots[entity.name] = _plain_value(entity.value)
    return slots


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
        return person_name(restored, words, rules)
    if spec.filtra_inicio and words[0] in rules.nao_sao_nomes:
        raise ArgError()  # "a estação de trem": an article or pronoun, not a value
    return restored


def person_name(restored: str, words: list[str], rules: HouseRules) -> str:
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
