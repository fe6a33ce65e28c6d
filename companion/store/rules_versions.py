"""The rules each command ran under (`rules`: each distinct version stored once) and the GM's
own rules (`house_rules`, companion/rules/overlay.py), stored with the command from which they
are in force; the rules of command n are those of the newest row at or before n."""
from __future__ import annotations

import sqlite3

from companion.store.connection import transaction


class RulesVersions:
    """The `rules` and `house_rules` tables."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def rules_id(self, fingerprint: str, files: str) -> int:
        """The id of this rules version, stored now if the log does not have it yet."""
        row = self._db.execute("SELECT id FROM rules WHERE fingerprint = ?",
                               (fingerprint,)).fetchone()
        if row is not None:
            return int(row[0])
        with transaction(self._db) as db:
            cursor = db.execute("INSERT INTO rules (fingerprint, files) VALUES (?, ?)",
                                (fingerprint, files))
        return int(cursor.lastrowid or 0)

    def rules_text(self, rules_id: int) -> str | None:
        """The stored rules of a version (rules_version.read turns them back into files)."""
        row = self._db.execute("SELECT files FROM rules WHERE id = ?", (rules_id,)).fetchone()
        return row[0] if row else None

    def last_rules(self) -> int | None:
        """The rules version the newest command ran under."""
        row = self._db.execute("SELECT rules FROM commands WHERE rules IS NOT NULL "
                               "ORDER BY n DESC LIMIT 1").fetchone()
        return int(row[0]) if row else None

    def house_rules(self, at: int | None = None) -> tuple[int, str] | None:
        """The GM's rules in force at command `at` (None: now) and the command that set them:
        the newest row at or before it (None: none, the shipped rules)."""
        row = self._db.execute(
            "SELECT n, overrides FROM house_rules WHERE n <= ? ORDER BY n DESC LIMIT 1",
            (at if at is not None else 1 << 62,)).fetchone()
        return (int(row[0]), str(row[1])) if row else None

    def house_rules_rows(self) -> dict[int, str]:
        """Every stored version of the GM's rules, by the command from which it is in force."""
        return {int(n): str(text) for n, text in
                self._db.execute("SELECT n, overrides FROM house_rules ORDER BY n")}
