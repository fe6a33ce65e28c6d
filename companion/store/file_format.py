"""A campaign file's format and the release that wrote it, read before the file is opened for
writing (DESIGN.md: campaign files across releases).

`PRAGMA user_version` is the format: 0 before stored history, 2 with stored history (events
packed since c6ce075, still 2), FORMAT since this release, which also records itself in the
`written_by` table (the release and the format). A release that finds a newer format refuses
the file untouched: it is read here through SQLite's immutable/read-only URI (no -wal, -shm or
lock of its own), and never opened for writing. Before an older file is changed (a migration,
the format raised), a consistent copy of it (SQLite's backup) is left beside it once:
`<nome>.antes-de-<release>.db`.
"""
from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from companion.tables.errors import CompanionError
from companion.tables.files import program_narration

FORMAT = 3  # the format this release writes
RELEASE = "0.2"  # this release, as the GM reads it (the copy's name, the refusal); raise it
# with each release that changes a rule or the format
BEFORE = ".antes-de-"  # a copy left before a change: <nome>.antes-de-<release>.db

WRITTEN_BY = ("CREATE TABLE IF NOT EXISTS written_by (id INTEGER PRIMARY KEY CHECK (id = 1), "
              "release TEXT NOT NULL, format INTEGER NOT NULL)")


@dataclass(frozen=True)
class Found:
    """What a campaign file says of itself: its format and the release that wrote it ("" when
    a release before FORMAT did), and whether it holds a campaign yet."""

    format: int
    release: str
    played: bool


class NewerFormat(CompanionError):
    """The file was written by a newer release: nothing of it may be changed. Its message is
    the Portuguese refusal (tables/narracao/sessao.yaml formato_mais_novo)."""

    def __init__(self, message: str, path: str, found: Found) -> None:
        super().__init__(message)
        self.path = path
        self.found = found


def _read_only(path: Path) -> sqlite3.Connection:
    """The file opened so that nothing is written beside it: immutable when no server has it
    open (no -wal beside it), read-only through its WAL otherwise."""
    where = path.resolve()
    still_open = Path(f"{where}-wal").exists()
    return sqlite3.connect(f"{where.as_uri()}?mode=ro{'' if still_open else '&immutable=1'}",
                           uri=True)


def inspect(path: Path) -> Found | None:
    """The format of the campaign file at path (None: no file, or an empty one)."""
    if not path.is_file() or path.stat().st_size == 0:
        return None
    connection = _read_only(path)
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        tables = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        release = ""
        if "written_by" in tables:
            row = connection.execute("SELECT release FROM written_by WHERE id = 1").fetchone()
            release = str(row[0]) if row else ""
        played = "commands" in tables and connection.execute(
            "SELECT 1 FROM commands LIMIT 1").fetchone() is not None
    finally:
        connection.close()
    return Found(version, release, played)


def refuse_newer(path: Path) -> Found | None:
    """The file's format (None: no file yet); NewerFormat when a newer release wrote it."""
    found = inspect(path)
    if found is not None and found.format > FORMAT:
        raise NewerFormat(program_narration().render("sessao.formato_mais_novo", {
            "banco": str(path), "versao": found.release, "formato": found.format,
            "esta": RELEASE, "maximo": FORMAT}), str(path), found)
    return found


def copy_path(path: Path) -> Path:
    """Where the copy of a campaign file before this release changes it goes."""
    return path.with_name(f"{path.stem}{BEFORE}{RELEASE}{path.suffix or '.db'}")


def is_copy(path: Path) -> bool:
    """Whether a file is such a copy (listed apart by `mesa campanhas`)."""
    return BEFORE in path.stem


def copy_before_change(path: Path) -> Path | None:
    """A consistent copy of the file beside it, once, before this release changes it (None
    when the copy was already there). SQLite's backup: a snapshot even of a file in WAL."""
    target = copy_path(path)
    if target.exists():
        return None
    partial = target.with_name(target.name + ".parcial")
    partial.unlink(missing_ok=True)
    if not Path(f"{path}-wal").exists():  # closed: the file is the whole campaign
        shutil.copyfile(path, partial)
    else:  # a WAL beside it: a consistent snapshot of file and WAL
        source = _read_only(path)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
    partial.replace(target)
    return target


def record(connection: sqlite3.Connection) -> None:
    """Mark an open file as written by this release, in its format (nothing written when it
    already is). One statement at a time: it may run inside the caller's transaction."""
    connection.execute(WRITTEN_BY)
    row = connection.execute("SELECT release, format FROM written_by WHERE id = 1").fetchone()
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    if row == (RELEASE, FORMAT) and version == FORMAT:
        return
    connection.execute("INSERT OR REPLACE INTO written_by (id, release, format) VALUES (1, ?, ?)",
                       (RELEASE, FORMAT))
    connection.execute(f"PRAGMA user_version={FORMAT}")
