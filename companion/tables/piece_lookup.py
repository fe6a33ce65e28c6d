"""Finding the typed pieces: which piece types a place of tables/*.yaml (`typed_at`,
`declared_at`), and which values of a kind a built piece holds (`can_hold`, `held`);
rulebook.py declares and builds the pieces."""
from __future__ import annotations

import types
from dataclasses import is_dataclass
from typing import Any, Callable, Iterator, Mapping, TypeVar, Union, get_args, get_origin

from companion.tables.rulebook import PIECES, Place, _dataclasses_in, _field_names, _hints, _typed

T = TypeVar("T")


def can_hold(kind: Any, target: type) -> bool:
    """Whether a value of type `kind` (a piece, a field's type) may hold `target` values
    (instances of it or of a subclass), anywhere inside."""
    return _can_hold(kind, target, set())


def _can_hold(kind: Any, target: type, seen: set[Any]) -> bool:
    if isinstance(kind, type) and issubclass(kind, target):
        return True
    origin = get_origin(kind)
    if origin is not None and is_dataclass(origin):
        kind = origin
    if is_dataclass(kind) and isinstance(kind, type):
        if kind in seen:
            return False
        seen.add(kind)
        return any(_can_hold(hint, target, seen) for hint in _hints(kind).values())
    return any(_can_hold(arg, target, seen) for arg in get_args(kind)
               if arg is not Ellipsis and not isinstance(arg, (str, int, bool)))


def _closest(file: str, path: tuple[str, ...]) -> tuple[type, Place]:
    """The piece declared closest around tables/<file>.yaml at `path` that reads it."""
    found: tuple[type, Place] | None = None
    for cls, place in PIECES.items():
        depth = len(place.path)
        if place.file != file or depth > len(path) or path[:depth] != place.path:
            continue
        if depth < len(path) and path[depth] not in _field_names(cls):
            continue
        if found is None or depth > len(found[1].path):
            found = (cls, place)
    if found is None:
        raise LookupError(f"tables/{file}.yaml '{'.'.join(path) or '(raiz)'}'")
    return found


def typed_at(rules: Callable[[type[Any]], Any], file: str, *path: str) -> Any:
    """The typed value of tables/<file>.yaml at `path`: the piece declared exactly there, or
    what a piece declared around it (the closest) reads there, when path's next key is one of
    its fields; `rules(Cls)` gives the built pieces. LookupError when no piece types it."""
    cls, place = _closest(file, path)
    value = rules(cls)
    for key in path[len(place.path):]:
        if isinstance(value, Mapping) and key in value:
            value = value[key]
        elif is_dataclass(value) and key in _field_names(type(value)):
            value = getattr(value, key)
        else:
            raise LookupError(f"tables/{file}.yaml '{'.'.join(path)}'")
    return value


def declared_at(file: str, *path: str) -> Any:
    """The type the pieces declare for tables/<file>.yaml at `path` (a generic piece's type
    variable resolved: inicio.yaml `estacao.valor` of a `HouseValue[Season]` is Season).
    LookupError when no piece types it."""
    cls, place = _closest(file, path)
    kind: Any = cls
    for key in path[len(place.path):]:
        kind = _declared_inside(kind, key)
        if kind is None:
            raise LookupError(f"tables/{file}.yaml '{'.'.join(path)}'")
    return kind


def _declared_inside(kind: Any, key: str) -> Any:
    """The declared type of `key` inside a value of type `kind` (None: not typed there)."""
    while get_origin(kind) in (Union, types.UnionType):
        options = [arg for arg in get_args(kind) if arg is not type(None)]
        if len(options) != 1:
            return None
        kind = options[0]
    origin = get_origin(kind) or kind
    if is_dataclass(origin) and isinstance(origin, type):
        hint = _hints(origin).get(key)
        bound = dict(zip(getattr(origin, "__parameters__", ()), get_args(kind)))
        return _typed(hint, bound) if hint is not None else None
    if isinstance(origin, type) and issubclass(origin, Mapping) and get_args(kind):
        return get_args(kind)[1]
    return None


def held(value: Any, target: type[T]) -> Iterator[T]:
    """The `target` values inside a built piece, in the file's order."""
    for item, _ in _dataclasses_in(value, ""):
        if isinstance(item, target):
            yield item


__all__ = ["can_hold", "declared_at", "held", "typed_at"]
