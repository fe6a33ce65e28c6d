"""A full disk for tests: SQLite's `PRAGMA max_page_count` makes a file that may not grow give
the same 'database or disk is full' as a full filesystem, no mount needed. The pragma is per
connection, so the session's own connection is capped (the tests' one reach into the Log)."""
from __future__ import annotations

import sqlite3
from typing import Callable

from companion.tables.errors import CommandRejected
from companion.session import RunResult, Session

FILL_LIMIT = 500  # rounds; a page of 4 KiB holds a few dozen rolls

Write = Callable[[], RunResult]


def cap(connection: sqlite3.Connection, pages: int | None) -> int:
    """Cap the file at `pages` (None: at its size now) on this connection; returns the cap
    it had, to lift it again."""
    before = connection.execute("PRAGMA max_page_count").fetchone()[0]
    size = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {size if pages is None else pages}")
    return int(before)


class Disk:
    """The session's disk, filled by the table playing and freed again."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.room: int | None = None

    def fill(self, *writes: Write) -> list[RunResult]:
        """Cap the file at its size, then give the writes, round after round, until a round
        where every one is refused. A file that may not grow still has room inside its pages
        for a smaller write; after that round it has none for any of these (a refused write
        changes nothing, so it comes again the same: same number, same dice). Returns every
        result, in order."""
        with self.session._lock:  # the test's one reach into the Log
            room = cap(self.session._log._db, None)
        self.room = self.room or room
        results: list[RunResult] = []
        for _ in range(FILL_LIMIT):
            done = [write() for write in writes]
            results.extend(done)
            refused = [r for r in done if not r.ok]
            assert all(r.code and r.code.endswith(".disco_cheio") for r in refused), refused
            if len(refused) == len(done):
                return results
        raise AssertionError(f"{FILL_LIMIT} rodadas e o arquivo não encheu")

    def free(self) -> None:
        assert self.room is not None
        with self.session._lock:
            cap(self.session._log._db, self.room)


def command(session: Session, text: str, actor: str = "gm") -> Write:
    return lambda: session.run(text, actor=actor)


class Joins:
    """Joins as a write, each by a new name (`name 1`, `name 2`…: a seated name is refused
    whatever the disk) that moves on only once it got in; a refusal as a RunResult."""

    def __init__(self, session: Session, name: str) -> None:
        self.session = session
        self.prefix = name
        self.count = 1

    @property
    def name(self) -> str:
        """The name the next join will use (the one refused last, if it was)."""
        return f"{self.prefix} {self.count}"

    def __call__(self) -> RunResult:
        try:
            self.session.join_player(self.name)
        except CommandRejected as refused:
            return RunResult(False, error=refused.message, code=refused.code)
        self.count += 1
        return RunResult(True)


def join(session: Session, name: str) -> Joins:
    return Joins(session, name)
