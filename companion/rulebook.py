"""Typed rules: the parts of tables/*.yaml each procedure reads, as frozen dataclasses.

A procedure declares a piece with `@piece("viagem", "tabela_b")` on a frozen dataclass whose
fields are the keys of that part of the file (the data's own Portuguese words, so the file and
the code say the same thing). Loading builds every declared piece once, with dacite (strict by
default: a key the dataclass does not know is an error too), so a mistake in a file is a
TableError naming the file and the key, and nothing downstream reads raw dicts:
`rules.piece(ForcedMarch).dc`. A value's own check (a dice expression, a chance within 0–6) is
a `validate()` method on its dataclass that raises `InvalidValue(field, what it should be)`;
it runs after the piece is built, for every dataclass inside it, so the error names the whole
key path ('variacao.dados').
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Callable, Mapping, TypeVar

import dacite

from companion.errors import TableError

T = TypeVar("T")


@dataclass(frozen=True)
class Place:
    """Where a piece lives: tables/<file>.yaml, at `path` inside it (empty: the whole file)."""

    file: str
    path: tuple[str, ...]
    strict: bool

    def where(self, field_path: str = "") -> str:
        keys = ".".join([*self.path, *([field_path] if field_path else [])])
        return keys or "(raiz)"


PIECES: dict[type, Place] = {}


class InvalidValue(ValueError):
    """Raised by a piece's validate(): `field` should be `expected` (in Portuguese)."""

    def __init__(self, field: str, expected: str) -> None:
        super().__init__(f"{field}: {expected}")
        self.field = field
        self.expected = expected


def piece(file: str, *path: str, strict: bool = True) -> Callable[[type[T]], type[T]]:
    """Declare a frozen dataclass as the typed form of tables/<file>.yaml at `path`."""

    def register(cls: type[T]) -> type[T]:
        if not is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass to be a rules piece")
        PIECES[cls] = Place(file, tuple(path), strict)
        return cls

    return register


_TYPE_NAMES = {"int": "número inteiro", "str": "texto", "float": "número", "bool": "sim/não",
               "Mapping": "mapa", "dict": "mapa", "tuple": "lista", "list": "lista",
               "Literal": "um dos valores aceitos"}


def _expected(error: dacite.WrongTypeError) -> str:
    name = getattr(error.field_type, "__name__", None) or str(error.field_type)
    literal = getattr(error.field_type, "__args__", None)
    if str(error.field_type).startswith("typing.Literal") and literal:
        return "um destes: " + ", ".join(str(value) for value in literal)
    return _TYPE_NAMES.get(name, name)


def _node(files: Mapping[str, Any], place: Place) -> Any:
    if place.file not in files:
        raise TableError(f"tables/{place.file}.yaml: arquivo não encontrado")
    node = files[place.file]
    for depth, key in enumerate(place.path):
        if not isinstance(node, Mapping) or key not in node:
            raise TableError(f"tables/{place.file}.yaml: falta a chave "
                             f"'{'.'.join(place.path[: depth + 1])}'")
        node = node[key]
    return node


def _validate(value: Any, path: str) -> None:
    """Call validate() on every dataclass inside value; InvalidValue gets the full path."""
    if is_dataclass(value) and not isinstance(value, type):
        check = getattr(value, "validate", None)
        if check is not None:
            try:
                check()
            except InvalidValue as error:
                raise InvalidValue(f"{path}.{error.field}" if path else error.field,
                                   error.expected) from None
        for item in fields(value):
            _validate(getattr(value, item.name), f"{path}.{item.name}" if path else item.name)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _validate(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            _validate(item, f"{path}[{index}]")


def build_piece(cls: type[T], files: Mapping[str, Any]) -> T:
    """The typed piece `cls` from the loaded files; TableError naming file and key."""
    place = PIECES[cls]
    node = _node(files, place)
    prefix = f"tables/{place.file}.yaml"
    config = dacite.Config(strict=place.strict, cast=[tuple])
    try:
        built = dacite.from_dict(cls, node, config=config)
        _validate(built, "")
        return built
    except dacite.WrongTypeError as error:
        raise TableError(f"{prefix}: '{place.where(error.field_path or '')}' deveria ser "
                         f"{_expected(error)}") from None
    except dacite.MissingValueError as error:
        raise TableError(f"{prefix}: falta a chave '{place.where(error.field_path or '')}'") \
            from None
    except dacite.UnexpectedDataError as error:
        keys = ", ".join(sorted(str(key) for key in error.keys))
        raise TableError(f"{prefix}: chave desconhecida em '{place.where()}': {keys}") from None
    except dacite.DaciteError as error:
        raise TableError(f"{prefix}: '{place.where()}' inválido ({error})") from None
    except InvalidValue as error:
        raise TableError(f"{prefix}: '{place.where(error.field)}' deveria ser "
                         f"{error.expected}") from None


def build_pieces(files: Mapping[str, Any]) -> dict[type, Any]:
    """Every declared piece, built once from the loaded files."""
    return {cls: build_piece(cls, files) for cls in PIECES}


__all__ = ["InvalidValue", "PIECES", "build_piece", "build_pieces", "piece"]
