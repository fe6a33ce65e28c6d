"""How stored states are packed: a keyframe (the state's JSON, zlib) every so often, and in
between, for each command, only what changed since the state before it.

A delta is a JSON object of the state's top-level fields: `"="` holds the fields whose value
changed (the new value whole), `"+"` the list fields that only grew at the end (the items
added: the GM's secret notes, a list of monsters…). So a state costs what the command changed,
however long the campaign and however large its state. Reading the state after command n
starts at its keyframe and applies every delta after it, in order (PackedStates keeps its place,
so reading states one after another applies each delta once).
"""
from __future__ import annotations

import json
import zlib
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any, Mapping

LEVEL = 6  # zlib's compression level

Row = tuple[int, "int | None", bytes]  # format, keyframe number (None: this is one), bytes


@dataclass(frozen=True)
class StoredState:
    """The state after one command, as the session serialised it, in its format."""

    format: int
    raw: bytes


class StateDamaged(Exception):
    """A stored state that cannot be unpacked (its bytes, or those of a state before it in its
    chain, are damaged or missing)."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


def delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from `before` to `after` (two states as JSON objects, same format)."""
    changed: dict[str, Any] = {}
    grown: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key, None) if key in before else _MISSING
        if old == value:
            continue
        if isinstance(old, list) and isinstance(value, list) and len(value) > len(old) \
                and value[:len(old)] == old:
            grown[key] = value[len(old):]
        else:
            changed[key] = value
    gone = [key for key in before if key not in after]
    return {"=": changed, "+": grown, **({"-": gone} if gone else {})}


def patch(before: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """`before` with a delta applied."""
    after = dict(before)
    after.update(change.get("=", {}))
    for key, items in change.get("+", {}).items():
        after[key] = list(after[key]) + list(items)
    for key in change.get("-", []):
        after.pop(key, None)
    return after


_MISSING = object()


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def pack(value: Any) -> bytes:
    return zlib.compress(dumps(value), LEVEL)


def loads(raw: bytes) -> Any:
    return json.loads(raw)


def unpack(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob))


class PackedStates:
    """Stored states as the log keeps them (n → format, keyframe number or None, bytes),
    unpacked on demand."""

    def __init__(self, rows: Mapping[int, Row]) -> None:
        self.rows = rows
        self._order = sorted(rows)
        self._at: tuple[int, int, dict[str, Any]] | None = None  # (n, its keyframe, state)

    def numbers(self) -> list[int]:
        return list(self._order)

    def get(self, n: int) -> StoredState:
        """The state after command n; StateDamaged when it cannot be unpacked, KeyError when
        none is stored."""
        return StoredState(self.rows[n][0], dumps(self.value(n)))

    def value(self, n: int) -> dict[str, Any]:
        """The state after command n as a JSON object (StateDamaged, KeyError as `get`)."""
        _format, base, _blob = self.rows[n]
        return self._state(n, n if base is None else base)

    def _state(self, n: int, key: int) -> dict[str, Any]:
        start, state = key, None
        if self._at is not None and self._at[1] == key and self._at[0] <= n:
            start, state = self._at[0], self._at[2]
        try:
            if state is None:
                if key not in self.rows or self.rows[key][1] is not None:
                    raise StateDamaged(n)
                state = unpack(self.rows[key][2])
            index = bisect_left(self._order, start)
            for m in self._order[index + 1:]:
                if m > n:
                    break
                base = self.rows[m][1]
                if base != key:
                    raise StateDamaged(n)  # a chain broken (a row of another keyframe)
                state = patch(state, unpack(self.rows[m][2]))
        except (zlib.error, ValueError, TypeError, KeyError, AttributeError):
            raise StateDamaged(n) from None
        self._at = (n, key, state)
        return state
