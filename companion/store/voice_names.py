"""The names the GM told the voice to forget, in the campaign's SQLite file (not game events).

A name typed in `monstro`, `item`, `tesouro` or `magia` joins that campaign's voice lists
(companion/voice/learned.py reads them from the stored commands); `companion voz esquecer`
takes one out: its row says up to which command it is forgotten, so typing it again later
brings it back. Its own table (`voice_forgotten`), beside the log, like `utterances`.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Iterable, Mapping

from companion.store.side_table import open_side_table

TABLE = "voice_forgotten"
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    name TEXT PRIMARY KEY,
    upto INTEGER NOT NULL
);
"""


def forgotten_of(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """{name: the last command it is forgotten up to} from the table's rows (Log.rows_of)."""
    return {str(row["name"]): int(row["upto"]) for row in rows}


class ForgottenNames:
    """The forgotten-names table of one SQLite file (its own connection, its own lock)."""

    def __init__(self, path: str | Path) -> None:
        self._db = open_side_table(path, SCHEMA)
        self._lock = threading.Lock()

    def forget(self, names: Iterable[str], upto: int) -> None:
        """Forget these names (folded) as typed up to command `upto`, in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    f"INSERT INTO {TABLE} (name, upto) VALUES (?, ?) "
                    "ON CONFLICT(name) DO UPDATE SET upto = excluded.upto",
                    [(name, upto) for name in names])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def all(self) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute(f"SELECT name, upto FROM {TABLE}").fetchall()
        return {str(name): int(upto) for name, upto in rows}

    def version(self) -> tuple[int, int]:
        """Changes whenever a name is forgotten (cheap: asked before each new utterance)."""
        with self._lock:
            count, total = self._db.execute(
                f"SELECT COUNT(*), COALESCE(SUM(upto), 0) FROM {TABLE}").fetchone()
        return int(count), int(total)

    def close(self) -> None:
        with self._lock:
            self._db.close()
