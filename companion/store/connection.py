"""The SQLite file under the log: its schema (brought up to date when an older file is opened),
a full disk said as DiskFull, and the one way to write (`transaction`)."""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Iterator

from companion.tables.errors import DiskFull

MEMORY = ":memory:"
HISTORY = 2  # PRAGMA user_version of a log with stored history (before it: 0)
FULL_DISK_CODES = frozenset({sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR_SHMSIZE})

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seed TEXT NOT NULL,
    gm_token TEXT NOT NULL,
    created TEXT NOT NULL,
    secret TEXT
);
CREATE TABLE IF NOT EXISTS commands (
    n INTEGER PRIMARY KEY,
    text TEXT NOT NULL,
    name TEXT NOT NULL,
    args TEXT NOT NULL,
    actor TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    at TEXT NOT NULL,
    dice TEXT,
    rules INTEGER REFERENCES rules(id)
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    command_n INTEGER NOT NULL REFERENCES commands(n),
    command TEXT NOT NULL,
    kind TEXT NOT NULL,
    visibility TEXT NOT NULL,
    text TEXT NOT NULL,
    data TEXT NOT NULL,
    code TEXT,
    words TEXT
);
CREATE INDEX IF NOT EXISTS events_by_command ON events(command_n);
CREATE TABLE IF NOT EXISTS states (
    n INTEGER PRIMARY KEY REFERENCES commands(n),
    format INTEGER NOT NULL,
    base INTEGER,
    state BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS rules (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL UNIQUE,
    files TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS house_rules (
    n INTEGER PRIMARY KEY,
    overrides TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    token TEXT PRIMARY KEY,
    character_id TEXT NOT NULL,
    name TEXT NOT NULL,
    since TEXT
);
"""


def add_missing_columns(connection: sqlite3.Connection) -> None:
    """A log written before events kept their narration, before commands kept their dice
    and rules, before tokens kept their time, or before the campaign kept a secret, gets the
    (empty) columns."""
    wanted = {"meta": ("secret TEXT",),
              "events": ("code TEXT", "words TEXT"),
              "commands": ("dice TEXT", "rules INTEGER REFERENCES rules(id)"),
              "players": ("since TEXT",)}
    for table, columns in wanted.items():
        have = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        for column in columns:
            if column.split()[0] not in have:
                connection.execute(f"ALTER TABLE {table} ADD COLUMN {column}")


@contextmanager
def full_disk() -> Iterator[None]:
    """SQLite's 'database or disk is full' raised as DiskFull, and so is the -shm file that
    cannot grow (opening a file on a full disk); every other error as it is."""
    try:
        yield
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) in FULL_DISK_CODES:
            raise DiskFull() from error
        raise



@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One atomic write: committed on success, rolled back on any error (DiskFull when the
    disk is full)."""
    with full_disk():
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # a full disk may have rolled it back already
                db.execute("ROLLBACK")
            raise
