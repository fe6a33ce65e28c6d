"""A table kept beside the campaign's log in the same SQLite file, outside the game's history
(what the recogniser heard, the names the GM had the voice forget): its own connection, as
durable as the log (WAL, synchronous=FULL), usable from the listener's thread."""
from __future__ import annotations

import sqlite3
from pathlib import Path


def open_side_table(path: str | Path, schema: str) -> sqlite3.Connection:
    """A connection to `path` in autocommit mode with `schema` made (CREATE … IF NOT EXISTS)."""
    connection = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.executescript(schema)
    return connection
