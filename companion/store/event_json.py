"""How an event's data and words are stored: their compact JSON, packed with a preset dictionary
when that is shorter.

A value is stored either as its JSON text (SQLite TEXT: every row written before this release,
and any value the dictionary would not shorten) or as a BLOB: one byte, the dictionary's number,
then the JSON deflated (raw deflate, zlib's 32 KB window) with that dictionary preset. SQLite
gives a TEXT back as str and a BLOB as bytes, so the two never mix up. An event's data is a
hundred-odd bytes of the same keys, table names and rows again and again: zlib alone saves
almost nothing on so little, with the dictionary most of it (bench/dicionario_eventos.py
measures it).

A dictionary (companion/store/eventos-N.zdict, made by bench/dicionario_eventos.py) is frozen
the day it ships: every campaign packed with it needs those bytes to be read, so its SHA-256 is
pinned here and a new one takes the next number. Values are packed with CURRENT.
"""
from __future__ import annotations

import hashlib
import zlib
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Iterator, Mapping

import msgspec

DICTIONARIES: dict[int, tuple[str, str]] = {
    1: ("eventos-1.zdict", "ed02d49026213b56c2589771ece3ab92e62234b5b56a639f6031260cf87acf80"),
}
CURRENT = 1
LEVEL = 9
WINDOW_BITS = -15  # raw deflate (no zlib header: the number byte says what follows)
PACKED_KEPT = 4096  # values remembered by pack (each some tens of bytes)
MEMORY_LEVEL = 8  # zlib's default; a primed compressor at 9 costs ten times as much to copy


class UnknownPacking(ValueError):
    """A value packed with a dictionary this release does not have (a newer release's file)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


@cache
def dictionary(number: int) -> bytes:
    """The bytes of a shipped dictionary, checked against its pinned SHA-256."""
    if number not in DICTIONARIES:
        raise UnknownPacking(number)
    name, sha256 = DICTIONARIES[number]
    data = resources.files(__package__).joinpath(name).read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise RuntimeError(f"{name}: damaged (SHA-256 differs from the one it shipped with)")
    return data


@cache
def _primed(number: int) -> Any:
    """A compressor with the dictionary already read: each value packs from a copy of it."""
    return zlib.compressobj(LEVEL, zlib.DEFLATED, WINDOW_BITS, MEMORY_LEVEL,
                            zlib.Z_DEFAULT_STRATEGY, dictionary(number))


@lru_cache(maxsize=PACKED_KEPT)
def pack(text: str, number: int = CURRENT) -> str | bytes:
    """A value's JSON as stored: packed with dictionary `number` (bytes) when that is shorter,
    else the text itself. Remembered for the last PACKED_KEPT values: most of an evening's
    values come again and again (`{}`, the rounds of a torch, the labels of the same tables),
    and deflating one at level 9 against the dictionary costs ~60 µs, a fair share of a
    command's own time beside its durable commit."""
    raw = text.encode()
    compressor = _primed(number).copy()
    packed = bytes([number]) + compressor.compress(raw) + compressor.flush()
    return packed if len(packed) < len(raw) else text


def unpacked(value: str | bytes) -> str | bytes:
    """A stored value's JSON (text as stored, or the UTF-8 bytes a packed one holds)."""
    if isinstance(value, str):
        return value
    if not value:
        raise ValueError("empty packed value")
    reader = zlib.decompressobj(WINDOW_BITS, zdict=dictionary(value[0]))
    try:
        raw = reader.decompress(value[1:]) + reader.flush()
    except zlib.error as error:  # damaged bytes read as damaged JSON would: a ValueError
        raise ValueError(f"damaged packed value ({error})") from None
    if not reader.eof:
        raise ValueError("truncated packed value")
    return raw


def text(value: str | bytes) -> str:
    """A stored value's JSON as text."""
    found = unpacked(value)
    return found if isinstance(found, str) else found.decode()


class StoredWords(Mapping[str, Any]):
    """An event's stored words, decoded when first read: a long campaign's report or a page's
    projection renders only some of its events, so most events' words are never read."""

    __slots__ = ("_stored", "_value")

    def __init__(self, stored: str | bytes) -> None:
        self._stored = stored
        self._value: dict[str, Any] | None = None

    def _decoded(self) -> dict[str, Any]:
        if self._value is None:
            self._value = msgspec.json.decode(unpacked(self._stored))
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._decoded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())

    def keys(self) -> Any:  # `{**data, **words}` reads these, then each value
        return self._decoded().keys()

    def __repr__(self) -> str:
        return repr(self._decoded())
