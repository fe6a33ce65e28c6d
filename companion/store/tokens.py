"""The tokens a phone holds for a character's seat (`players`): a seat is a character's tokens;
freeing it deletes them in the transaction of the command that records the freeing."""
from __future__ import annotations

import sqlite3

from companion.store.connection import transaction


class Tokens:
    """The `players` table."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def add_player(self, token: str, character_id: str, name: str,
                   since: str | None = None) -> None:
        """A token for a character's seat, given at `since`."""
        with transaction(self._db) as db:
            db.execute("INSERT INTO players (token, character_id, name, since) "
                       "VALUES (?, ?, ?, ?)", (token, character_id, name, since))

    def player(self, token: str) -> tuple[str, str, str] | None:
        row = self._db.execute("SELECT token, character_id, name FROM players WHERE token = ?",
                               (token,)).fetchone()
        return tuple(row) if row else None

    def players(self) -> list[tuple[str, str, str]]:
        rows = self._db.execute(
            "SELECT token, character_id, name FROM players ORDER BY rowid").fetchall()
        return [tuple(row) for row in rows]

    def seats(self) -> list[tuple[str, str, str | None, int]]:
        """(character id, name, when its first token was given, how many tokens) for every
        character with a token, in the order their seats were first taken. A token from a
        log written before tokens kept their time has none (None)."""
        rows = self._db.execute(
            "SELECT character_id, MIN(name), MIN(since), COUNT(*) FROM players "
            "GROUP BY character_id ORDER BY MIN(rowid)").fetchall()
        return [(c, n, s, int(k)) for c, n, s, k in rows]
