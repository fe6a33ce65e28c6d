"""Snapshots of the engine's state, so reopening a long session replays only its tail.

A snapshot is the pickled `State` (frozen dataclasses, tuples and dicts only), tagged with a
version: a fingerprint of the engine's source and the loaded tables. A snapshot taken by other
rules or other code is never used (its version differs), and one that fails to load is ignored:
the log itself stays the truth, the snapshot only saves replay time.
"""
from __future__ import annotations

import hashlib
import pickle
from functools import lru_cache
from pathlib import Path

from companion import engine
from companion.engine import State
from companion.store.log import Snapshot
from companion.tables import Tables

EVERY = 100  # commands between snapshots: reopening replays at most about this many
ENGINE_DIR = Path(engine.__file__).resolve().parent


@lru_cache(maxsize=1)
def _engine_digest() -> str:
    digest = hashlib.sha256()
    for source in sorted(ENGINE_DIR.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def version(tables: Tables) -> str:
    """The fingerprint a snapshot must carry to be used with this engine and these tables."""
    digest = hashlib.sha256(_engine_digest().encode())
    digest.update(repr(tables.files).encode())  # same YAML → same repr (ordered dicts)
    return digest.hexdigest()[:32]


def due(n: int) -> bool:
    """Whether the state after command n is snapshotted."""
    return n > 0 and n % EVERY == 0


def dump(state: State, tag: str) -> Snapshot:
    return Snapshot(tag, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))


def load(blob: bytes) -> State | None:
    """The state in a snapshot, or None when it cannot be read back as a State."""
    try:
        state = pickle.loads(blob)
    except Exception:  # a snapshot is only a shortcut: any failure means "replay instead"
        return None
    return state if isinstance(state, State) else None
