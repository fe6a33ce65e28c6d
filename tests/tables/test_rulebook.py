"""Typed rules: a piece of tables/*.yaml as a frozen dataclass; errors name file and key."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, Mapping, TypeVar

import pytest

from companion.tables.errors import TableError
from companion.tables.files import DEFAULT_DIR
from companion.tables.narration import compile_templates, load_narrator
from companion.tables.rulebook import PIECES, InvalidValue, build_piece, piece

# What the test pieces' own checks say (a piece says it by code; the loader renders it).
NARRATION = compile_templates({"teste": {"chance": "um número de 0 a 6 (X em {{ faces }})",
                                         "linha": "uma linha da tabela_b"}})


@dataclass(frozen=True)
class _Row:
    nome: str
    chance: int

    def validate(self) -> None:
        if not 0 <= self.chance <= 6:
            raise InvalidValue("chance", "teste.chance", {"faces": 6})


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
    built = build_piece(declared, _files(), NARRATION)
    assert built.dc == 12 and built.grupos == (_Row("Colinas", 2),)
    with pytest.raises(AttributeError):
        built.dc = 15  # type: ignore[misc]


@pytest.mark.parametrize("changes, message", [
    ({"dc": "doze"}, r"tables/teste\.yaml: 'tabela_b\.dc' deveria ser número inteiro"),
    ({"nivel": "facil"}, r"'tabela_b\.nivel' deveria ser um destes: inseguro, arriscado, mortal"),
    ({"extra": 1}, r"chave desconhecida em 'tabela_b': extra"),
    ({"grupos": [{"nome": "Colinas", "chance": 9}]},
     r"'tabela_b\.grupos\[0\]\.chance' deveria ser um número de 0 a 6 \(X em 6\)$"),
])
def test_a_mistake_names_the_file_and_the_key(declared, changes, message) -> None:
    with pytest.raises(TableError, match=message):
        build_piece(declared, _files(**changes), NARRATION)


def test_a_missing_key_is_named(declared) -> None:
    files = _files()
    del files["teste"]["tabela_b"]["dc"]
    with pytest.raises(TableError, match=r"falta a chave 'tabela_b\.dc'"):
        build_piece(declared, files, NARRATION)
    with pytest.raises(TableError, match=r"falta a chave 'tabela_b'"):
        build_piece(declared, {"teste": {}}, NARRATION)


# ---------------------------------------------------------------- each place declared once

@dataclass(frozen=True)
class _Again:
    nome: str


@dataclass(frozen=True)
class _Around:
    tabela_b: _Check


@dataclass(frozen=True)
class _Beside:
    outra: str


@pytest.fixture
def forget():
    """Drop what a test declares, whether or not the declaration was refused."""
    yield
    for cls in (_Again, _Around, _Beside):
        PIECES.pop(cls, None)


@pytest.mark.parametrize("cls, file, path, strict", [
    (_Again, "teste", ("tabela_b",), True),          # the same place
    (_Again, "teste", ("tabela_b",), False),         # the same place, loosely
    (_Around, "teste", (), True),                    # around it, strict: reads every key
    (_Around, "teste", (), False),                   # around it, with a field over it
    (_Again, "teste", ("tabela_b", "grupos"), True),  # inside it
])
def test_a_second_declaration_of_the_same_keys_is_refused(declared, forget, cls, file, path,
                                                           strict) -> None:
    with pytest.raises(TypeError, match=rf"{cls.__qualname__} declares tables/teste\.yaml.*"
                                        r"_Check already declares tables/teste\.yaml "
                                        r"'tabela_b'"):
        piece(file, *path, strict=strict)(cls)
    assert cls not in PIECES


def test_places_that_do_not_share_keys_may_both_be_declared(declared, forget) -> None:
    piece("teste", strict=False)(_Beside)  # around tabela_b, but reads only `outra`
    piece("outro", "tabela_b")(_Again)     # another file
    assert PIECES[_Beside].file == "teste" and PIECES[_Again].file == "outro"
    with pytest.raises(TypeError, match="_Beside"):
        piece("teste", "outra", "x")(_Again)  # inside what _Beside reads


# ---------------------------------------------------------------- error paths through maps

@dataclass(frozen=True)
class _Mapped:
    linhas: Mapping[str, _Row]
    nomes: Mapping[str, str] = field(default_factory=dict)


@pytest.fixture
def mapped():
    piece("teste", "tabela_m")(_Mapped)
    yield _Mapped
    PIECES.pop(_Mapped, None)


@pytest.mark.parametrize("linhas, nomes, message", [
    ({"3": {"nome": "a", "chance": "dois"}}, {},
     r"tables/teste\.yaml: 'tabela_m\.linhas\.3\.chance' deveria ser número inteiro"),
    ({"3": {"nome": "a"}}, {}, r"tables/teste\.yaml: falta a chave 'tabela_m\.linhas\.3\.chance'"),
    ({"3": {"nome": "a", "chance": 1, "cor": "azul"}}, {},
     r"tables/teste\.yaml: chave desconhecida em 'tabela_m\.linhas\.3': cor"),
    ({"3": {"nome": "a", "chance": 9}}, {},
     r"'tabela_m\.linhas\.3\.chance' deveria ser um número de 0 a 6"),
    ({"3": "a"}, {}, r"'tabela_m\.linhas\.3' deveria ser mapa"),
    ({}, {"tocha": 6}, r"'tabela_m\.nomes\.tocha' deveria ser texto"),
])
def test_a_mistake_inside_a_map_names_the_entry(mapped, linhas, nomes, message) -> None:
    with pytest.raises(TableError, match=message):
        build_piece(mapped, {"teste": {"tabela_m": {"linhas": linhas, "nomes": nomes}}}, NARRATION)


def test_a_map_is_built_entry_by_entry(mapped) -> None:
    built = build_piece(mapped, {"teste": {"tabela_m": {"linhas": {"3": {"nome": "a",
                                                                         "chance": 2}}}}}, NARRATION)
    assert built.linhas["3"] == _Row("a", 2) and built.nomes == {}


# ---------------------------------------------------------------- generic pieces and key order

V = TypeVar("V")


@dataclass(frozen=True)
class _House(Generic[V]):
    valor: V
    padrao_da_casa: bool


@dataclass(frozen=True)
class _Start:
    estacao: _House[Literal["verao", "inverno"]]
    dias: _House[int]


@pytest.fixture
def started():
    piece("teste", "inicio")(_Start)
    yield _Start
    PIECES.pop(_Start, None)


def _start(**estacao):
    return {"teste": {"inicio": {"estacao": {"valor": "verao", "padrao_da_casa": True, **estacao},
                                 "dias": {"valor": 3, "padrao_da_casa": False}}}}


def test_a_generic_piece_is_built_with_its_type_filled_in(started) -> None:
    built = build_piece(started, _start(), NARRATION)
    assert built.estacao == _House("verao", True) and built.dias.valor == 3
    with pytest.raises(TableError, match=r"'inicio\.estacao\.valor' deveria ser um destes: "
                                         r"verao, inverno"):
        build_piece(started, _start(valor="outono"), NARRATION)


def test_a_misspelt_key_is_said_as_the_missing_one(started) -> None:
    files = _start()
    node = files["teste"]["inicio"]
    node["estacoa"] = node.pop("estacao")
    with pytest.raises(TableError, match=r"falta a chave 'inicio\.estacao'"):
        build_piece(started, files, NARRATION)


# ---------------------------------------------------------------- unions

@dataclass(frozen=True)
class _Either:
    rotulo: int | Literal["livre"]
    linhas: Mapping[str, str | _Row] = field(default_factory=dict)


@pytest.fixture
def either():
    piece("teste", "tabela_u")(_Either)
    yield _Either
    PIECES.pop(_Either, None)


def _union(**node):
    return {"teste": {"tabela_u": {"rotulo": 1, **node}}}


@pytest.mark.parametrize("node, message", [
    ({"rotulo": "preso"}, r"'tabela_u\.rotulo' deveria ser número inteiro ou um destes: livre, "
                          r"mas é \"preso\"$"),
    ({"rotulo": [1, 2]}, r"'tabela_u\.rotulo' deveria ser .*, mas é \[1, 2\]$"),
    ({"rotulo": None}, r"'tabela_u\.rotulo' deveria ser .*, mas é vazio$"),
    ({"rotulo": True}, r"'tabela_u\.rotulo' deveria ser .*, mas é true$"),
    ({"linhas": {"3": 7}}, r"'tabela_u\.linhas\.3' deveria ser texto ou mapa, mas é 7$"),
    ({"linhas": {"3": list(range(30))}},
     r"'tabela_u\.linhas\.3' deveria ser texto ou mapa, mas é \[0, 1, 2, 3, 4, 5, 6, 7, 8, "
     r"9, 10, 11, …$"),
])
def test_a_value_that_fits_no_type_of_a_union_is_quoted(either, node, message) -> None:
    with pytest.raises(TableError, match=r"^tables/teste\.yaml: " + message):
        build_piece(either, _union(**node), NARRATION)


def test_a_map_where_a_union_has_one_map_gets_the_maps_own_error(either) -> None:
    with pytest.raises(TableError, match=r"^tables/teste\.yaml: chave desconhecida em "
                                         r"'tabela_u\.linhas\.3': cor$"):
        build_piece(either, _union(linhas={"3": {"nome": "a", "chance": 1, "cor": "azul"}}), NARRATION)
    built = build_piece(either, _union(rotulo="livre", linhas={"3": "a", "4": {"nome": "b",
                                                                             "chance": 2}}), NARRATION)
    assert built.rotulo == "livre" and built.linhas == {"3": "a", "4": _Row("b", 2)}


# ---------------------------------------------------------------- naming another piece

@dataclass(frozen=True)
class _Named:
    """A row that names an entry of another piece (`_Check.linhas`)."""

    linha: str

    def check_against(self, rules) -> None:
        if self.linha not in rules(_Check).linhas:
            raise InvalidValue("linha", "teste.linha")


@dataclass(frozen=True)
class _Naming:
    linhas: Mapping[str, _Named]


@pytest.fixture
def naming(declared):
    piece("teste", "outra")(_Naming)
    yield _Naming
    PIECES.pop(_Naming, None)


def test_a_name_of_another_piece_is_checked_with_file_and_key(naming) -> None:
    from companion.tables.files import Tables

    files = _files()
    files["teste"]["outra"] = {"linhas": {"x": {"linha": "2-6"}}}
    tables = Tables(files=files, directory=Path("."), narrator=NARRATION)
    assert tables.piece(naming).linhas["x"].linha == "2-6"
    files["teste"]["outra"] = {"linhas": {"x": {"linha": "7"}}}
    with pytest.raises(TableError, match=r"^tables/teste\.yaml: 'outra\.linhas\.x\.linha' "
                                         r"deveria ser uma linha da tabela_b$"):
        Tables(files=files, directory=Path("."), narrator=NARRATION).piece(naming)


def test_a_piece_says_whether_it_can_hold_a_row_and_finds_them(naming) -> None:
    from companion.tables.piece_lookup import can_hold, held

    assert can_hold(_Naming, _Named) and not can_hold(_Check, _Named)
    built = build_piece(naming, {"teste": {"outra": {"linhas": {"a": {"linha": "1"},
                                                                "b": {"linha": "2-6"}}}}}, NARRATION)
    assert [row.linha for row in held(built, _Named)] == ["1", "2-6"]


def test_the_shared_checks_say_the_field_and_what_it_should_be() -> None:
    from dataclasses import dataclass

    from companion.tables.rulebook import InvalidValue, require_at_least, require_filled

    @dataclass
    class Spec:
        vezes: int | None
        nomes: tuple[str, ...]
        listas: dict[str, tuple[str, ...]]

    require_at_least(Spec(None, ("a",), {}), 1, "vezes")  # left out: not checked
    with pytest.raises(InvalidValue) as low:
        require_at_least(Spec(0, ("a",), {}), 1, "vezes")
    assert (low.value.field, low.value.code, low.value.data) == (
        "vezes", "validacao.inteiro_de", {"minimo": 1})
    shipped = load_narrator(DEFAULT_DIR)
    assert shipped.render(low.value.code, low.value.data) == "um número inteiro de 1 para cima"
    require_filled(Spec(1, ("a",), {}), "nomes", "listas")  # an empty map has no empty list
    with pytest.raises(InvalidValue) as empty:
        require_filled(Spec(1, (), {}), "nomes")
    assert (empty.value.field, empty.value.code) == ("nomes", "validacao.lista_nao_vazia")
    assert shipped.render(empty.value.code, empty.value.data) == "uma lista não vazia"
    with pytest.raises(InvalidValue) as inner:
        require_filled(Spec(1, ("a",), {"criatura": ()}), "listas")
    assert inner.value.field == "listas.criatura"
