"""Every utterance heard, accepted or refused, in the session's SQLite file (not game events).

Its own table (`utterances`) next to the command log, for the session report: when, what was
heard, how sure the recogniser was, whether it was accepted, what command it was read as, the
command number it ran as, and why it was refused. Written in WAL with synchronous=FULL like the
log, each row committed before the GM page is told.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from companion.store.side_table import open_side_table

SCHEMA = """
CREATE TABLE IF NOT EXISTS utterances (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    text TEXT NOT NULL,
    confidence REAL NOT NULL,
    accepted INTEGER NOT NULL CHECK (accepted IN (0, 1)),
    command TEXT,
    command_name TEXT,
    n INTEGER,
    reason TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class UtteranceRow:
    id: int
    at: str
    text: str
    confidence: float
    accepted: bool
    command: str | None
    command_name: str | None
    n: int | None
    reason: str


class Utterances:
    """The utterance table of one SQLite file (its own connection, its own lock)."""

    def __init__(self, path: str | Path) -> None:
        self._db = open_side_table(path, SCHEMA)
        self._lock = threading.Lock()

    def add(self, text: str, confidence: float, accepted: bool, reason: str,
            command: str | None = None, command_name: str | None = None,
            n: int | None = None, at: str | None = None) -> int:
        when = at or datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        with self._lock:
            cursor = self._db.execute(
                "INSERT INTO utterances (at, text, confidence, accepted, command, "
                "command_name, n, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (when, text, float(confidence), int(accepted), command, command_name, n,
                 reason))
            return int(cursor.lastrowid)

    def all(self) -> list[UtteranceRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, at, text, confidence, accepted, command, command_name, n, reason "
                "FROM utterances ORDER BY id").fetchall()
        return [UtteranceRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7], r[8])
                for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
