"""Typed rules: the parts of tables/*.yaml each procedure reads, as frozen dataclasses.

A procedure declares a piece with `@piece("viagem", "tabela_b")` on a frozen dataclass whose
fields are the keys of that part of the file (the data's own Portuguese words, so the file and
the code say the same thing). Each place is declared once: a second class over the same keys
(the same place, or one inside or around it that would read the same keys) is refused when it
is declared. Loading builds every declared piece once, strict by default (a key the dataclass
does not know is an error too), so a mistake in a file is a TableError naming the file and the
whole key path, through lists ('grupos[0].chance') and maps ('linhas.3.efeito') alike, and
nothing downstream reads raw dicts: `rules.piece(ForcedMarch).dc`. A value's own check (a dice
expression, a chance within 0–6) is a `validate()` method on its dataclass that raises
`InvalidValue(field, code, data)`: what the value should be is said by a narration code
(tables/narracao/validacao.yaml, rendered with the narration of the tables being loaded, which
the loader reads first); it runs after the piece is built, for every dataclass inside it, so the
error names the whole key path ('variacao.dados'). A value that fits no type
of a union is quoted, short ("'linhas.3' deveria ser texto ou mapa, mas é 7"); a map where the
union has one map-shaped type gets that type's own error instead (its unknown key, its path).
A value that names an entry of another piece (a condition's `efeito`, a key of viagem.yaml
`efeitos_de_condicao`) is checked by a `check_against(rules)` method, given every piece
(`rules(Cls)`): it runs once all are built, for every dataclass inside, and its InvalidValue
names the key path the same way.
"""
from __future__ import annotations

import json
import types
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Literal, Mapping, Protocol, TypeVar, Union, \
    get_args, get_origin, get_type_hints

from companion.tables import built_pieces
from companion.tables.errors import TableError

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

    def text(self) -> str:
        return f"tables/{self.file}.yaml '{'.'.join(self.path) or '(root)'}'"


PIECES: dict[type, Place] = {}


class InvalidValue(ValueError):
    """Raised by a piece's validate() or check_against(): `field` should be what the narration
    `code` says with `data` ('validacao.chance_em_6'); the loader renders it into its
    TableError with the narration of the tables it loads."""

    def __init__(self, field: str, code: str, data: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{field}: {code}")
        self.field = field
        self.code = code
        self.data: dict[str, Any] = dict(data or {})

    def at(self, path: str) -> InvalidValue:
        """The same error, its field inside `path`."""
        return type(self)(_join(path, self.field), self.code, self.data)


class Narrates(Protocol):
    """What renders an InvalidValue's code (companion.tables.narration.Narrator)."""

    def render(self, code: str, data: Mapping[str, Any]) -> str: ...


def require_at_least(spec: object, minimum: int, *names: str) -> None:
    """For a piece's validate(): each named field is a whole number from `minimum` up (a field
    that may be left out, None, is not checked)."""
    for name in names:
        value = getattr(spec, name)
        if value is not None and value < minimum:
            raise InvalidValue(name, "validacao.inteiro_de", {"minimo": minimum})


def require_filled(spec: object, *names: str) -> None:
    """For a piece's validate(): each named list has something; for a map of lists, each of
    its lists does."""
    for name in names:
        value = getattr(spec, name)
        lists = value.items() if isinstance(value, Mapping) else [(None, value)]
        for key, items in lists:
            if not items:
                raise InvalidValue(name if key is None else f"{name}.{key}",
                                   "validacao.lista_nao_vazia")


class DuplicatePiece(TypeError):
    """A programming error: two rules pieces declared over the same keys of a file."""


def _field_names(cls: type) -> set[str]:
    return {item.name for item in fields(cls)}


def _overlap(outer_cls: type, outer: Place, inner: Place) -> bool:
    """Whether the piece at `outer` (a prefix of `inner`'s path) reads keys `inner` reads."""
    if outer.path == inner.path or outer.strict:
        return True
    return inner.path[len(outer.path)] in _field_names(outer_cls)


def _conflict(cls: type, place: Place) -> type | None:
    """The piece already declared over keys that `cls` at `place` would read too, if any."""
    for other, known in PIECES.items():
        if _name(other) == _name(cls) or known.file != place.file:  # itself (or reloaded)
            continue
        shorter = min(len(known.path), len(place.path))
        if known.path[:shorter] != place.path[:shorter]:
            continue
        if len(known.path) <= len(place.path):
            if _overlap(other, known, place):
                return other
        elif _overlap(cls, place, known):
            return other
    return None


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def piece(file: str, *path: str, strict: bool = True) -> Callable[[type[T]], type[T]]:
    """Declare a frozen dataclass as the typed form of tables/<file>.yaml at `path`; a place
    another piece already reads is refused (DuplicatePiece): each part is declared once."""

    def register(cls: type[T]) -> type[T]:
        if not is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass to be a rules piece")
        place = Place(file, tuple(path), strict)
        other = _conflict(cls, place)
        if other is not None:
            raise DuplicatePiece(
                f"{_name(cls)} declares {place.text()}, but {_name(other)} already declares "
                f"{PIECES[other].text()} over the same keys: read that piece instead")
        for old in [known for known in PIECES if _name(known) == _name(cls)]:
            del PIECES[old]  # the same class declared again (its module reloaded)
        PIECES[cls] = place
        return cls

    return register


class _Fault(Exception):
    """Why a value does not fit its type, and where (the key path inside the piece)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


_TYPE_NAMES: dict[Any, str] = {int: "número inteiro", str: "texto", float: "número",
                               bool: "sim/não", type(None): "vazio"}


def _expected(kind: Any) -> str:
    """What a value of this type is called in an error ('número inteiro', 'um destes: …')."""
    origin = get_origin(kind)
    if origin is Literal:
        return "um destes: " + ", ".join(str(value) for value in get_args(kind))
    if origin in (Union, types.UnionType):
        return " ou ".join(_expected(arg) for arg in get_args(kind) if arg is not type(None))
    if origin in (tuple, list):
        return "lista"
    if origin is not None or kind is dict or is_dataclass(kind):
        return "mapa"
    return _TYPE_NAMES.get(kind, getattr(kind, "__name__", str(kind)))


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _wrong(path: str, kind: Any) -> _Fault:
    return _Fault(path, f"deveria ser {_expected(kind)}")


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _typed(hint: Any, params: Mapping[Any, Any]) -> Any:
    """A field's type with the type parameters of a generic dataclass filled in
    (`HouseValue[Season]`: `valor: V` is a Season)."""
    if isinstance(hint, TypeVar):
        return params.get(hint, Any)
    needed = getattr(hint, "__parameters__", ())
    return hint[tuple(params.get(p, Any) for p in needed)] if needed else hint


def _build_dataclass(cls: type, data: Any, path: str, strict: bool,
                     params: Mapping[Any, Any] | None = None) -> Any:
    if not isinstance(data, Mapping):
        raise _wrong(path, cls)
    hints = {name: _typed(hint, params or {}) for name, hint in _hints(cls).items()}
    names = [item for item in fields(cls) if item.init]
    for item in names:  # a missing key first: a misspelt one is also unknown, and this says
        # what the key should be called
        if (item.name not in data and item.default is MISSING
                and item.default_factory is MISSING):
            raise _Fault(_join(path, item.name), "falta a chave '{where}'")
    unknown = set(data) - {item.name for item in names}
    if strict and unknown:
        keys = ", ".join(sorted(str(key) for key in unknown))
        raise _Fault(path, f"chave desconhecida em '{{where}}': {keys}")
    return cls(**{item.name: _build(hints[item.name], data[item.name],
                                    _join(path, item.name), strict)
                  for item in names if item.name in data})


def _build_union(kind: Any, data: Any, path: str, strict: bool) -> Any:
    options = [arg for arg in get_args(kind) if arg is not type(None)]
    if data is None and len(options) < len(get_args(kind)):
        return None
    if len(options) == 1:  # Optional[X]: X's own error says more
        return _build(options[0], data, path, strict)
    faults = []
    for option in options:
        try:
            return _build(option, data, path, strict)
        except _Fault as fault:
            faults.append((option, fault))
    shaped = [fault for option, fault in faults if _has_shape(option, data)]
    if len(shaped) == 1:  # the one option of the value's shape: its own error says where
        raise shaped[0]
    raise _Fault(path, f"deveria ser {_expected(kind)}, mas é {_quoted(data)}")


QUOTE_LENGTH = 40  # characters of a value quoted in an error, before '…'


def _quoted(value: Any) -> str:
    """A value as the file wrote it, short: '"doze"', '[1, 2]', 'true', 'vazio'."""
    if value is None:
        return "vazio"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= QUOTE_LENGTH else text[:QUOTE_LENGTH - 1] + "…"


def _has_shape(kind: Any, data: Any) -> bool:
    """Whether data is the kind of YAML node `kind` is built from (a map for a dataclass or a
    mapping, a list for a tuple), so its error, not the union's, says what is wrong."""
    origin = get_origin(kind) or kind
    if is_dataclass(origin) or origin is dict or (
            isinstance(origin, type) and issubclass(origin, Mapping)):
        return isinstance(data, Mapping)
    if origin in (tuple, list):
        return isinstance(data, (list, tuple))
    return False


def _build_mapping(kind: Any, data: Any, path: str, strict: bool) -> dict[Any, Any]:
    """A map built value by value, so an error inside names the entry's key."""
    if not isinstance(data, Mapping):
        raise _wrong(path, kind)
    key_kind, value_kind = get_args(kind) or (Any, Any)
    built = {}
    for key, value in data.items():
        where = _join(path, key)
        try:
            _build(key_kind, key, path, strict)
        except _Fault:
            raise _Fault(where, f"é uma chave que deveria ser {_expected(key_kind)}") from None
        built[key] = _build(value_kind, value, where, strict)
    return built


def _build_sequence(kind: Any, data: Any, path: str, strict: bool) -> tuple[Any, ...]:
    if not isinstance(data, (list, tuple)):
        raise _wrong(path, kind)
    items = get_args(kind)
    if get_origin(kind) is list or (len(items) == 2 and items[1] is Ellipsis) or not items:
        item_kind = items[0] if items else Any
        return tuple(_build(item_kind, item, f"{path}[{index}]", strict)
                     for index, item in enumerate(data))
    if len(data) != len(items):
        raise _wrong(path, kind)
    return tuple(_build(item_kind, item, f"{path}[{index}]", strict)
                 for index, (item_kind, item) in enumerate(zip(items, data)))


def _build_plain(kind: Any, data: Any, path: str) -> Any:
    if kind is Any:
        return data
    if isinstance(data, bool) and kind is not bool:
        raise _wrong(path, kind)
    if not isinstance(kind, type) or not isinstance(data, kind):
        raise _wrong(path, kind)
    return data


def _build(kind: Any, data: Any, path: str, strict: bool) -> Any:
    """The value of type `kind` from the loaded YAML `data`, or a _Fault naming where."""
    origin = get_origin(kind)
    if is_dataclass(kind):
        return _build_dataclass(kind, data, path, strict)
    if origin is not None and is_dataclass(origin):  # a generic dataclass: HouseValue[Season]
        params = dict(zip(getattr(origin, "__parameters__", ()), get_args(kind)))
        return _build_dataclass(origin, data, path, strict, params)
    if origin is Literal:
        if any(data == value and type(data) is type(value) for value in get_args(kind)):
            return data
        raise _wrong(path, kind)
    if origin in (Union, types.UnionType):
        return _build_union(kind, data, path, strict)
    if kind is dict or (isinstance(origin, type) and issubclass(origin, Mapping)):
        return _build_mapping(kind, data, path, strict)
    if origin in (tuple, list):
        return _build_sequence(kind, data, path, strict)
    return _build_plain(kind, data, path)


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


def _dataclasses_in(value: Any, path: str) -> Iterator[tuple[Any, str]]:
    """Every dataclass inside a built value (itself first), with its key path."""
    if is_dataclass(value) and not isinstance(value, type):
        yield value, path
        for item in fields(value):
            yield from _dataclasses_in(getattr(value, item.name), _join(path, item.name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _dataclasses_in(item, _join(path, key))
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from _dataclasses_in(item, f"{path}[{index}]")


def _run_checks(value: Any, method: str, *args: Any) -> None:
    """Call `method` (validate, check_against) on every dataclass inside value that has it;
    InvalidValue gets the full key path."""
    for item, path in _dataclasses_in(value, ""):
        check = getattr(item, method, None)
        if check is not None:
            try:
                check(*args)
            except InvalidValue as error:
                raise error.at(path) from None


def _invalid(place: Place, error: InvalidValue, narration: Narrates) -> TableError:
    """The TableError of a value its piece's own check refused: file, key path and what the
    value should be (the check's narration code, rendered)."""
    return TableError(f"tables/{place.file}.yaml: '{place.where(error.field)}' deveria ser "
                      f"{narration.render(error.code, error.data)}")


def build_piece(cls: type[T], files: Mapping[str, Any], narration: Narrates) -> T:
    """The typed piece `cls` from the loaded files; TableError naming file and key path (what
    a value should be said by `narration`, the narration of these tables)."""
    place = PIECES[cls]
    node = _node(files, place)
    prefix = f"tables/{place.file}.yaml"
    try:
        return built_pieces.built(cls, node, lambda: _validated(cls, node, place.strict))
    except _Fault as fault:
        where = place.where(fault.path)
        if "{where}" in fault.message:
            raise TableError(f"{prefix}: {fault.message.format(where=where)}") from None
        raise TableError(f"{prefix}: '{where}' {fault.message}") from None
    except InvalidValue as error:
        raise _invalid(place, error, narration) from None


def _validated(cls: type[T], node: Any, strict: bool) -> T:
    value: T = _build_dataclass(cls, node, "", strict)
    _run_checks(value, "validate")
    return value


def check_piece(cls: type[T], built: T, rules: Callable[[type[Any]], Any],
                narration: Narrates) -> None:
    """Check what the built piece `cls` names in other pieces (`check_against(rules)` of every
    dataclass inside it); TableError naming file and key path."""
    place = PIECES[cls]
    try:
        _run_checks(built, "check_against", rules)
    except InvalidValue as error:
        raise _invalid(place, error, narration) from None


def build_pieces(files: Mapping[str, Any], narration: Narrates) -> dict[type, Any]:
    """Every declared piece, built once from the loaded files, then checked against the
    others."""
    built = {cls: build_piece(cls, files, narration) for cls in PIECES}
    for cls, value in built.items():
        check_piece(cls, value, built.__getitem__, narration)
    return built


__all__ = ["DuplicatePiece", "InvalidValue", "Narrates", "PIECES", "require_at_least",
           "require_filled", "build_piece", "build_pieces",
           "check_piece", "piece"]
