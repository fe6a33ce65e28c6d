"""How stored states are packed: a keyframe (the state's JSON, zlib) every so often, and in
between, for each command, only what changed since the state before it.

A delta is a JSON object of the state's top-level fields: `"="` holds the fields whose value
changed (the new value whole), `"+"` the list fields that only grew at the end (the items
added: the GM's secret notes, a list of monsters…), `"-"` the fields gone. Since packing 2
(DELTAS) a delta also goes inside what changed: `"~"` holds, for an object field, the delta of
that object (the session form's dice count, one key of the travel), and `"*"` for a list field
of the same length, the delta of each changed item by its index (one character of the party);
a delta of packing 1 has neither and reads as before. So a state costs what the command changed,
however long the campaign and however large its state. A delta is stored as its compact JSON
when it is short (most: a few dozen bytes) or zlib would not make it smaller, else as MARK +
zlib; neither is a zlib stream, so a release of packing 1 finds such a state damaged (it
rebuilds it) instead of misreading it. Reading the state after command n starts at its keyframe
and applies every delta after it, in order (PackedStates keeps its place, so reading states one
after another applies each delta once).
"""
from __future__ import annotations

import json
import zlib
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import msgspec

LEVEL = 6  # zlib's compression level
MARK = b"z"  # a packing 2 delta compressed with zlib (a bare zlib stream starts with 0x78)
COMPRESS_FROM = 128  # bytes: a shorter delta is stored as its JSON (zlib not tried)

Row = tuple[int, "int | None", bytes]  # format, keyframe number (None: this is one), bytes


@dataclass(frozen=True)
class StoredState:
    """The state after one command, as the session serialised it, in its format."""

    format: int
    raw: bytes


@dataclass(frozen=True)
class ChangedState:
    """The state after one command as the session knows it: the JSON of each top-level field
    that may differ from the state stored after command `since` (the others are that state's,
    byte for byte), in the state's field order, and the whole state's JSON, made only when
    asked (a keyframe, or `since` is not the newest state stored). Packing a delta then reads
    and compares only those fields, not the whole state (a party of ten is ~4 KB of JSON)."""

    format: int
    since: int | None  # None: the fields are not known to be relative to any stored state
    fields: Mapping[str, bytes]
    whole: Callable[[], bytes]


class StateDamaged(Exception):
    """A stored state that cannot be unpacked (its bytes, or those of a state before it in its
    chain, are damaged or missing)."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


def delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from `before` to `after` (two states as JSON objects, same format), down
    into the objects and same-length lists that changed (packing 2)."""
    changed: dict[str, Any] = {}
    grown: dict[str, Any] = {}
    inside: dict[str, Any] = {}
    items: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key, None) if key in before else _MISSING
        if old == value:
            continue
        if isinstance(old, list) and isinstance(value, list) and len(value) > len(old) \
                and value[:len(old)] == old:
            grown[key] = value[len(old):]
        elif isinstance(old, dict) and isinstance(value, dict):
            inside[key] = delta(old, value)
        elif isinstance(old, list) and isinstance(value, list) and len(old) == len(value):
            items[key] = _item_deltas(old, value)
        else:
            changed[key] = value
    gone = [key for key in before if key not in after]
    out: dict[str, Any] = {}
    for op, found in (("=", changed), ("+", grown), ("~", inside), ("*", items), ("-", gone)):
        if found:
            out[op] = found
    return out


def _item_deltas(before: list[Any], after: list[Any]) -> dict[str, Any]:
    """The changed items of two lists of one length, by index: an object's delta, or (any
    other item) `{"!": item}`, the item whole."""
    return {str(index): delta(old, new) if isinstance(old, dict) and isinstance(new, dict)
            else {"!": new}
            for index, (old, new) in enumerate(zip(before, after)) if old != new}


def patch(before: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """`before` with a delta applied (packing 1 or 2)."""
    after = dict(before)
    after.update(change.get("=", {}))
    for key, items in change.get("+", {}).items():
        after[key] = list(after[key]) + list(items)
    for key, inner in change.get("~", {}).items():
        after[key] = patch(after[key], inner)
    for key, changed in change.get("*", {}).items():
        values = list(after[key])
        for index, inner in changed.items():
            at = int(index)
            values[at] = inner["!"] if "!" in inner else patch(values[at], inner)
        after[key] = values
    for key in change.get("-", []):
        after.pop(key, None)
    return after


_MISSING = object()


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once, not per call


def dumps(value: Any) -> bytes:
    """Compact JSON, UTF-8 (json.dumps(value, ensure_ascii=False, separators=(",", ":")))."""
    return _ENCODER.encode(value).encode()


def pack(value: Any) -> bytes:
    """A keyframe: the state's JSON, zlib (as packing 1 wrote it)."""
    return zlib.compress(dumps(value), LEVEL)


def pack_delta(change: Mapping[str, Any]) -> bytes:
    """A delta (packing 2): its compact JSON, or MARK + zlib when that is smaller; one shorter
    than COMPRESS_FROM bytes is its JSON without trying (zlib would save a few bytes of it,
    and setting up a compressor costs more than the rest of packing a state)."""
    raw = dumps(change)
    if len(raw) < COMPRESS_FROM:
        return raw
    packed = zlib.compress(raw, LEVEL)
    return raw if len(raw) <= len(packed) + len(MARK) else MARK + packed


def loads(raw: bytes) -> Any:
    """A state's JSON as the session serialised it (msgspec: the same values json.loads gives
    for what msgspec writes, in half the time, once per command)."""
    return msgspec.json.decode(raw)


def unpack(blob: bytes) -> Any:
    """A stored keyframe or delta, of packing 1 (zlib) or 2 (JSON, or MARK + zlib)."""
    if blob[:1] == b"{":
        return json.loads(blob)
    if blob[:len(MARK)] == MARK:
        return json.loads(zlib.decompress(blob[len(MARK):]))
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
        return StoredState(self.rows[n][0], msgspec.json.encode(self.value(n)))

    def format_of(self, n: int) -> int:
        """The format the state after command n was stored in (KeyError: none is stored)."""
        return self.rows[n][0]

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
