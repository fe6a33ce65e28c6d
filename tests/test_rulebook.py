"""Typed rules: a piece of tables/*.yaml as a frozen dataclass; errors name file and key."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Mapping

import pytest

from companion.errors import TableError
from companion.rulebook import PIECES, InvalidValue, build_piece, piece


@dataclass(frozen=True)
class _Row:
    nome: str
    chance: int

    def validate(self) -> None:
        if not 0 <= self.chance <= 6:
            raise InvalidValue("chance", "um número de 0 a 6 (X em 6)")


@dataclass(frozen=True)
class _Check:
    nome: str
    dc: int
    nivel: Literal["inseguro", "arriscado", "mortal"]
    linhas: Mapping[int | str, str]
    grupos: tuple[_Row, ...] = field(default=())


@pytest.fixture
def declared():
    piece("teste", "tabela_b")(_Check)
    yield _Check
    PIECES.pop(_Check, None)


def _files(**changes):
    node = {"nome": "Tabela B", "dc": 12, "nivel": "arriscado", "linhas": {1: "a", "2-6": "b"},
            "grupos": [{"nome": "Colinas", "chance": 2}]}
    node.update(changes)
    return {"teste": {"tabela_b": node}}


def test_a_piece_is_built_typed_and_frozen(declared) -> None:
    built = build_piece(declared, _files())
    assert built.dc == 12 and built.grupos == (_Row("Colinas", 2),)
    with pytest.raises(AttributeError):
        built.dc = 15  # type: ignore[misc]


@pytest.mark.parametrize("changes, message", [
    ({"dc": "doze"}, r"tables/teste\.yaml: 'tabela_b\.dc' deveria ser número inteiro"),
    ({"nivel": "facil"}, r"'tabela_b\.nivel' deveria ser um destes: inseguro, arriscado, mortal"),
    ({"extra": 1}, r"chave desconhecida em 'tabela_b': extra"),
    ({"grupos": [{"nome": "Colinas", "chance": 9}]},
     r"'tabela_b\.grupos\[0\]\.chance' deveria ser um número de 0 a 6"),
])
def test_a_mistake_names_the_file_and_the_key(declared, changes, message) -> None:
    with pytest.raises(TableError, match=message):
        build_piece(declared, _files(**changes))


def test_a_missing_key_is_named(declared) -> None:
    files = _files()
    del files["teste"]["tabela_b"]["dc"]
    with pytest.raises(TableError, match=r"falta a chave 'tabela_b\.dc'"):
        build_piece(declared, files)
    with pytest.raises(TableError, match=r"falta a chave 'tabela_b'"):
        build_piece(declared, {"teste": {}})
