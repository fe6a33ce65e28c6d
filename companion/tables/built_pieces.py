"""The typed pieces already built, by what they were built from.

Building a piece (companion.tables.rulebook.build_piece) reads its part of a file into frozen
dataclasses and runs their checks; the same data always gives the same piece. A process that
loads the rules more than once (a GM's house rules merged over the shipped ones, the tests'
copies of tables/ with one change) builds each piece again only when its data changed: the
data's marshal bytes name it (equal bytes are equal data, types and key order included).
"""
from __future__ import annotations

import hashlib
import marshal
from typing import Any, Callable, TypeVar

T = TypeVar("T")

_KEPT = 4096  # pieces kept at most (then forgotten all at once: only a cache)
_BUILT: dict[tuple[type, bytes], Any] = {}


def built(cls: type[T], node: Any, build: Callable[[], T]) -> T:
    """The piece `cls` made of `node`: kept from an earlier build of the same data, or
    `build()` (an error is never kept: it is raised again next time)."""
    try:
        key = (cls, hashlib.blake2b(marshal.dumps(node), digest_size=20).digest())
    except ValueError:  # data marshal cannot write: built every time
        return build()
    found = _BUILT.get(key)
    if found is None:
        found = build()
        if len(_BUILT) >= _KEPT:
            _BUILT.clear()
        _BUILT[key] = found
    return found
