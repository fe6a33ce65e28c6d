"""The session's append-only log in SQLite: commands, their events, players and the meta row.

Durability: WAL journal and `synchronous=FULL`, so a transaction is on disk when COMMIT returns.
Every accepted command and all its events go in one transaction (`append`); the session commits
it before it returns or broadcasts anything. On a full disk a write raises DiskFull and leaves
nothing of itself behind (what was committed before stays). Without a path the log lives in
memory (`:memory:`): a session that ends with the process, with nothing left on disk.

Snapshots: every so often the session stores the state after command n (`snapshots`), in the
same transaction as that command, tagged with a version (the engine's and tables' fingerprint).
Reopening loads the newest snapshot of the running version and replays only what follows it.
Undoing command n deletes every snapshot at or after n in the undo's own transaction, so a kept
snapshot always describes the log as it now stands.

Each event keeps, beside its text, how the text was rendered (`code`, `words`: the narration
code and the values only the text used), so a viewer's copy can be rendered again in their own
prompt numbers. A log written before these columns existed gets them, empty, when opened.

The log is not thread-safe by itself: the Session serialises every call with its lock (the
connection is opened with check_same_thread=False for that reason).
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from companion.errors import DiskFull

MEMORY = ":memory:"
FULL_DISK_CODES = frozenset({sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR_SHMSIZE})

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seed TEXT NOT NULL,
    gm_token TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS commands (
    n INTEGER PRIMARY KEY,
    text TEXT NOT NULL,
    name TEXT NOT NULL,
    args TEXT NOT NULL,
    actor TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    at TEXT NOT NULL
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
CREATE TABLE IF NOT EXISTS snapshots (
    n INTEGER PRIMARY KEY REFERENCES commands(n),
    version TEXT NOT NULL,
    state BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    token TEXT PRIMARY KEY,
    character_id TEXT NOT NULL,
    name TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Meta:
    """The session's identity: the seed every command's RNG derives from, and the GM token."""

    seed: str
    gm_token: str
    created: str


@dataclass(frozen=True)
class StoredCommand:
    """One accepted command as logged."""

    n: int
    text: str
    name: str
    args: Mapping[str, Any]
    actor: str
    undone: bool
    at: str


@dataclass(frozen=True)
class Snapshot:
    """The state after one command, serialised by the session, with the version it needs."""

    version: str
    state: bytes


@dataclass(frozen=True)
class NewEvent:
    """An event about to be stored (the log gives it its seq)."""

    kind: str
    visibility: str
    text: str
    data: Mapping[str, Any]
    code: str | None = None  # the narration code `text` was rendered from (tables/narracao)
    words: Mapping[str, Any] = field(default_factory=dict)  # the values only the text used


@dataclass(frozen=True)
class Narration:
    """How a stored event's text was rendered: its code and the words beside its data, so the
    text can be rendered again for one viewer (a player's own prompt numbers)."""

    code: str
    words: Mapping[str, Any]


def dumps(value: Any) -> str:
    """JSON as stored: UTF-8 text, keys in the order given."""
    return json.dumps(value, ensure_ascii=False)


def _words_json(words: Mapping[str, Any]) -> str:
    """The words as stored: JSON, with anything JSON cannot say as its text (the words are
    only read back to render the text again, never as data)."""
    return json.dumps(words, ensure_ascii=False, default=str)


def _add_missing_columns(connection: sqlite3.Connection) -> None:
    """A log written before events kept their narration gets the (empty) columns."""
    have = {row[1] for row in connection.execute("PRAGMA table_info(events)")}
    for column in ("code", "words"):
        if column not in have:
            connection.execute(f"ALTER TABLE events ADD COLUMN {column} TEXT")


@contextmanager
def _full_disk() -> Iterator[None]:
    """SQLite's 'database or disk is full' raised as DiskFull, and so is the -shm file that
    cannot grow (opening a file on a full disk); every other error as it is."""
    try:
        yield
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) in FULL_DISK_CODES:
            raise DiskFull() from error
        raise


def event_dict(seq: int, command: str, kind: str, visibility: str, text: str,
               data: Any) -> dict[str, Any]:
    """The one shape of an event outside the engine (DESIGN.md contract)."""
    return {"seq": seq, "command": command, "kind": kind, "visibility": visibility,
            "text": text, "data": data}


class Log:
    """An open SQLite log. Create with Log.open(path) (None → in memory)."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._db = connection
        self.path = path

    @classmethod
    def open(cls, path: str | Path | None = None) -> Log:
        """Open (creating if needed) the log at path, in WAL mode with synchronous=FULL."""
        where = str(path) if path else MEMORY
        connection = sqlite3.connect(where, isolation_level=None, check_same_thread=False)
        try:
            with _full_disk():  # a new file, or a closed one's -wal and -shm, on a full disk
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=FULL")
                connection.execute("PRAGMA foreign_keys=ON")
                connection.executescript(SCHEMA)
                _add_missing_columns(connection)
        except DiskFull:
            connection.close()
            raise
        return cls(connection, where)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic write: committed on success, rolled back on any error (DiskFull when the
        disk is full)."""
        with _full_disk():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # a full disk may have rolled it back already
                    self._db.execute("ROLLBACK")
                raise

    def pragma(self, name: str) -> Any:
        """Read a PRAGMA (journal_mode, synchronous…), for checks and tests."""
        return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    # ------------------------------------------------------------------ meta

    def meta(self) -> Meta | None:
        row = self._db.execute("SELECT seed, gm_token, created FROM meta WHERE id = 1").fetchone()
        return Meta(*row) if row else None

    def write_meta(self, meta: Meta) -> None:
        """Create or replace the meta row."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (id, seed, gm_token, created) "
                       "VALUES (1, ?, ?, ?)", (meta.seed, meta.gm_token, meta.created))

    # ------------------------------------------------------------------ commands and events

    def is_empty(self) -> bool:
        """No command stored yet (a session just created)."""
        return self._db.execute("SELECT 1 FROM commands LIMIT 1").fetchone() is None

    def next_number(self) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM commands").fetchone()
        return int(row[0])

    def append(self, n: int, text: str, name: str, args: Mapping[str, Any], actor: str,
               at: str, events: Sequence[NewEvent], undo: int | None = None,
               snapshot: Snapshot | None = None) -> list[dict[str, Any]]:
        """Store a command and its events (and mark `undo` undone, and keep `snapshot`, the
        state after this command) in ONE transaction.

        Returns the stored events as dicts with their seq. Data that is not JSON-safe raises
        before anything is written.
        """
        rows = [(e.kind, e.visibility, e.text, dumps(e.data), e.code,
                 _words_json(e.words) if e.code else None) for e in events]
        with self.transaction() as db:
            if undo is not None:
                db.execute("UPDATE commands SET undone = 1 WHERE n = ?", (undo,))
                db.execute("DELETE FROM snapshots WHERE n >= ?", (undo,))
            db.execute("INSERT INTO commands (n, text, name, args, actor, at) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (n, text, name, dumps(args), actor, at))
            if snapshot is not None:
                db.execute("INSERT OR REPLACE INTO snapshots (n, version, state) "
                           "VALUES (?, ?, ?)", (n, snapshot.version, snapshot.state))
            stored = []
            for kind, visibility, event_text, data, code, words in rows:
                cursor = db.execute(
                    "INSERT INTO events (command_n, command, kind, visibility, text, data, code, "
                    "words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (n, name, kind, visibility, event_text, data, code, words))
                stored.append(event_dict(int(cursor.lastrowid or 0), name, kind, visibility,
                                         event_text, json.loads(data)))
        return stored

    def commands(self, after: int = 0) -> list[StoredCommand]:
        """Every stored command numbered above `after`, in order."""
        rows = self._db.execute(
            "SELECT n, text, name, args, actor, undone, at FROM commands WHERE n > ? "
            "ORDER BY n", (after,)).fetchall()
        return [StoredCommand(n, text, name, json.loads(args), actor, bool(undone), at)
                for n, text, name, args, actor, undone, at in rows]

    def last_active(self, skip: Sequence[str]) -> StoredCommand | None:
        """The newest command not undone whose name is not in `skip`."""
        marks = ", ".join("?" for _ in skip) or "''"
        row = self._db.execute(
            "SELECT n, text, name, args, actor, undone, at FROM commands WHERE undone = 0 "
            f"AND name NOT IN ({marks}) ORDER BY n DESC LIMIT 1", tuple(skip)).fetchone()
        if row is None:
            return None
        n, text, name, args, actor, undone, at = row
        return StoredCommand(n, text, name, json.loads(args), actor, bool(undone), at)

    def events_since(self, seq: int = 0) -> list[dict[str, Any]]:
        """Stored events with a seq greater than `seq`, in order."""
        rows = self._db.execute(
            "SELECT seq, command, kind, visibility, text, data FROM events "
            "WHERE seq > ? ORDER BY seq", (seq,)).fetchall()
        return [event_dict(s, c, k, v, t, json.loads(d)) for s, c, k, v, t, d in rows]

    def events_of(self, n: int) -> list[dict[str, Any]]:
        """The events one command produced, in order."""
        rows = self._db.execute(
            "SELECT seq, command, kind, visibility, text, data FROM events "
            "WHERE command_n = ? ORDER BY seq", (n,)).fetchall()
        return [event_dict(s, c, k, v, t, json.loads(d)) for s, c, k, v, t, d in rows]

    def narrations(self, seqs: Sequence[int]) -> dict[int, Narration]:
        """seq → how its text was rendered, for those of `seqs` the log knows it of (events
        written before the log kept codes have none)."""
        found: dict[int, Narration] = {}
        wanted = sorted(set(seqs))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            for seq, code, words in self._db.execute(
                    f"SELECT seq, code, words FROM events WHERE seq IN ({marks}) "
                    "AND code IS NOT NULL", chunk):
                found[seq] = Narration(code, json.loads(words) if words else {})
        return found

    def prompt_ids(self) -> dict[int, int]:
        """For each command that asked for something, the highest prompt id it issued (its
        `pedido` events), undone commands included."""
        highest: dict[int, int] = {}
        for n, data in self._db.execute(
                "SELECT command_n, data FROM events WHERE kind = 'pedido' ORDER BY seq"):
            prompt = json.loads(data).get("pedido")
            if isinstance(prompt, dict) and isinstance(prompt.get("id"), int):
                highest[n] = max(highest.get(n, 0), prompt["id"])
        return highest

    def visibilities_since(self, seq: int = 0) -> list[tuple[int, str]]:
        """(seq, visibility) of the events after `seq`: enough to number them per viewer."""
        return self._db.execute("SELECT seq, visibility FROM events WHERE seq > ? ORDER BY seq",
                                (seq,)).fetchall()

    # ------------------------------------------------------------------ snapshots

    def snapshot_before(self, version: str, n: int | None = None) -> tuple[int, bytes] | None:
        """The newest snapshot of this version taken after a command numbered below `n`
        (any, without n): (its command number, its bytes)."""
        limit = n if n is not None else 1 << 62
        row = self._db.execute("SELECT n, state FROM snapshots WHERE version = ? AND n < ? "
                               "ORDER BY n DESC LIMIT 1", (version, limit)).fetchone()
        return (int(row[0]), bytes(row[1])) if row else None

    def keep_snapshot(self, n: int, snapshot: Snapshot) -> None:
        """Store the state after command n, the log's last command, on its own."""
        with self.transaction() as db:
            last = db.execute("SELECT COALESCE(MAX(n), 0) FROM commands").fetchone()[0]
            if last == n:
                db.execute("INSERT OR REPLACE INTO snapshots (n, version, state) "
                           "VALUES (?, ?, ?)", (n, snapshot.version, snapshot.state))

    def snapshot_numbers(self) -> list[int]:
        return [n for (n,) in self._db.execute("SELECT n FROM snapshots ORDER BY n")]

    def last_seq(self) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        return int(row[0])

    # ------------------------------------------------------------------ players

    def add_player(self, token: str, character_id: str, name: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO players (token, character_id, name) VALUES (?, ?, ?)",
                       (token, character_id, name))

    def player(self, token: str) -> tuple[str, str, str] | None:
        row = self._db.execute("SELECT token, character_id, name FROM players WHERE token = ?",
                               (token,)).fetchone()
        return tuple(row) if row else None

    def players(self) -> list[tuple[str, str, str]]:
        rows = self._db.execute(
            "SELECT token, character_id, name FROM players ORDER BY rowid").fetchall()
        return [tuple(row) for row in rows]
