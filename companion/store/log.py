"""The session's append-only log in SQLite: commands, their events, players and the meta row.

Durability: WAL journal and `synchronous=FULL`, so a transaction is on disk when COMMIT returns.
Every accepted command and all its events go in one transaction (`append`); the session commits
it before it returns or broadcasts anything. On a full disk a write raises DiskFull and leaves
nothing of itself behind (what was committed before stays). Without a path the log lives in
memory (`:memory:`): a session that ends with the process, with nothing left on disk.

History is kept, not recomputed: every command is stored with the state after it (`states`,
the session's serialised State, in the command's own transaction), its dice key (what its RNG
was derived from) and the rules version it ran under (`rules`, each distinct version stored
once). States are packed (companion/store/packing.py): one whole every KEYFRAME_EVERY commands
or more (until their deltas weigh KEYFRAME_WEIGHT times as much as it, at most KEYFRAME_MOST),
in between only what each command changed, so a state costs what its command changed however
long the campaign. A file written before stored history (`PRAGMA user_version` below HISTORY) has commands and no states: the session migrates it once.

Each event keeps, beside its text, how the text was rendered (`code`, `words`: the narration
code and the values only the text used), so a viewer's copy can be rendered again in their own
prompt numbers. A log written before these columns existed gets them, empty, when opened.
Since this release an event whose text is exactly what its code
renders from its data and words keeps no text of its own (`text` empty: DERIVED): reading it
renders it again (`Log.texts`, the session's narration; by default the program's
tables/narracao/), as every projection already does; `stored_since`, read by the projections,
leaves it empty for them to render. Data and words are compact JSON, stored packed with a preset
dictionary when that is shorter (companion/store/event_json.py: a BLOB, where a row written
before holds its JSON as TEXT). Rows written before keep their text and read exactly as before.

The GM's own rules (`house_rules`, companion/rules/overlay.py): the campaign's differences from
the shipped tables/, as YAML text, stored with the command from which they are in force (the
session's start for a campaign created with them, each rules change, an undo of one, the
opening that dropped what an update removed); the rules of command n are those of the newest
row at or before n.

Players: each token a phone holds, with its character and when it was given (`since`). A seat
is a character's tokens (`seats`); freeing it deletes them in the transaction of the system
command that records the freeing (`append(..., release=character)`).

The log is not thread-safe by itself: the Session serialises every call with its lock (the
connection is opened with check_same_thread=False for that reason).
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import msgspec

from companion.store import file_format
from companion.store.event_json import pack as pack_json
from companion.store.event_json import StoredWords, unpacked
from companion.store.private import create_private
from companion.store.packing import PackedStates, StateDamaged, StoredState, delta, pack
from companion.store.packing import pack_delta
from companion.store.packing import loads as unpack_json

from companion.tables.errors import DiskFull
from companion.tables.files import program_narration

MEMORY = ":memory:"
DERIVED = ""  # an event's stored text when its code renders it again (Log._event_row)
HISTORY = 2  # PRAGMA user_version of a log with stored history (before it: 0)
KEYFRAME_EVERY = 64  # fewest commands between two states stored whole (store/packing.py)
KEYFRAME_MOST = 512  # most commands between two (reading a state applies at most this many)
KEYFRAME_WEIGHT = 2  # a keyframe once the deltas since the last weigh this many times it
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


@dataclass(frozen=True)
class Meta:
    """The session's identity: what every command's RNG derives from (the campaign's secret,
    or a seed: companion.history.dice_keys), and the GM token."""

    seed: str
    gm_token: str
    created: str
    secret: str | None = None  # None: a campaign from before secrets (its small seed)


@dataclass(frozen=True)
class Last:
    """The newest stored state, as the next one is packed against it: its command, format,
    keyframe, value (a JSON object), and the bytes of its keyframe and of the deltas since."""

    n: int
    format: int
    keyframe: int
    value: dict[str, Any]
    keyframe_bytes: int
    deltas: int


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
    dice: str | None = None  # what the command's RNG was derived from (None: not yet migrated)
    rules: int | None = None  # the rules version it ran under (Log.rules_text)


@dataclass(frozen=True)
class NewEvent:
    """An event about to be stored (the log gives it its seq)."""

    kind: str
    visibility: str
    text: str
    data: Mapping[str, Any]
    code: str | None = None  # the narration code `text` was rendered from (tables/narracao)
    words: Mapping[str, Any] = field(default_factory=dict)  # the values only the text used
    derived: bool = False  # its code renders `text` again: stored without it (DERIVED)


@dataclass(frozen=True)
class Narration:
    """How a stored event's text was rendered: its code and the words beside its data, so the
    text can be rendered again for one viewer (a player's own prompt numbers)."""

    code: str
    words: Mapping[str, Any]


def dumps(value: Any) -> str:
    """JSON as stored: UTF-8 text, keys in the order given."""
    return json.dumps(value, ensure_ascii=False)


def _loads(text: str) -> Any:
    """Stored JSON read back (msgspec: a whole campaign's events read for the report several
    times faster than json.loads; the same values)."""
    return msgspec.json.decode(text)


def _compact(value: Any) -> str:
    """An event's data as stored: JSON, UTF-8, keys in the order given, no spaces."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _words_json(words: Mapping[str, Any]) -> str:
    """The words as stored: JSON, with anything JSON cannot say as its text (the words are
    only read back to render the text again, never as data)."""
    return json.dumps(words, ensure_ascii=False, default=str, separators=(",", ":"))


def as_read_back(data: Any, words: Mapping[str, Any]) -> tuple[Any, Any]:
    """An event's data and words as the log gives them back once stored (JSON both ways)."""
    return json.loads(_compact(data)), json.loads(_words_json(words))


def program_texts(code: str, params: Mapping[str, Any]) -> str:
    """A text rendered by the program's own tables/narracao/ (or $COMPANION_TABLES')."""
    return program_narration().render(code, params)


def _add_missing_columns(connection: sqlite3.Connection) -> None:
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


def _command(row: Sequence[Any]) -> StoredCommand:
    n, text, name, args, actor, undone, at, dice, rules = row
    return StoredCommand(n, text, name, json.loads(args), actor, bool(undone), at, dice, rules)


COMMAND_COLUMNS = "n, text, name, args, actor, undone, at, dice, rules"


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
    """The one shape of an event outside the engine (docs/design.md contract)."""
    return {"seq": seq, "command": command, "kind": kind, "visibility": visibility,
            "text": text, "data": data}


class Log:
    """An open SQLite log. Create with Log.open(path) (None → in memory) or Log.read(path)."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._db = connection
        self.path = path
        # the newest stored state, to pack the next one against; None before it is read (or
        # when there is none)
        self._last: Last | None = None
        # how a text left out (DERIVED) is rendered again: the session's narration (None: the
        # program's tables/narracao/, program_texts)
        self.texts: Callable[[str, Mapping[str, Any]], str] | None = None
        self._last_read = False
        self.copied: Path | None = None  # the copy left beside the file before it changed

    @classmethod
    def open(cls, path: str | Path | None = None) -> Log:
        """Open (creating if needed) the log at path, in WAL mode with synchronous=FULL. A
        file of a newer format is refused untouched (file_format.NewerFormat); an older one is
        copied beside itself before anything of it changes (`copied`: where, when it was
        copied now)."""
        where = str(path) if path else MEMORY
        copied: Path | None = None
        if path:
            found = file_format.refuse_newer(Path(path))
            if found is not None and found.played and found.format < file_format.FORMAT:
                copied = file_format.copy_before_change(Path(path))
        if path:  # owner-only: it holds the tokens and the dice secret (SQLite gives its -wal
            try:  # and -shm the file's own mode)
                create_private(Path(path))
            except OSError:
                pass  # no such folder, no room: SQLite says so, as before
        connection = sqlite3.connect(where, isolation_level=None, check_same_thread=False)
        try:
            with _full_disk():  # a new file, or a closed one's -wal and -shm, on a full disk
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=FULL")
                connection.execute("PRAGMA foreign_keys=ON")
                log = cls._ready(connection, where)
                log.copied = copied
                return log
        except DiskFull:
            connection.close()
            raise

    @classmethod
    def read(cls, path: str | Path) -> Log:
        """A copy in memory of the log at path, for reading: the file itself is never written
        (a log written before stored history can be migrated in the copy). SQLite's backup
        copies a consistent snapshot, even while a server writes the file."""
        # a file nobody has open (no -wal beside it) is read as immutable: SQLite then writes
        # no -wal/-shm of its own beside it; one a server has open is read through its WAL
        file_format.refuse_newer(Path(path))
        where = Path(path).resolve()
        still_open = Path(f"{where}-wal").exists()
        source = sqlite3.connect(f"{where.as_uri()}?mode=ro{'' if still_open else '&immutable=1'}",
                                 uri=True)
        copy = sqlite3.connect(MEMORY, isolation_level=None, check_same_thread=False)
        try:
            source.backup(copy)
        finally:
            source.close()
        return cls._ready(copy, str(path))

    @classmethod
    def _ready(cls, connection: sqlite3.Connection, where: str) -> Log:
        """The schema made or brought up to date; a new log is marked as keeping history."""
        new = connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'commands'"
                                 ).fetchone() is None
        connection.executescript(SCHEMA)
        _add_missing_columns(connection)
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if new or version >= HISTORY:  # a file from before stored history: once migrated
            file_format.record(connection)
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

    def keeps_history(self) -> bool:
        """Whether the log stores states (False: written by the release before, to migrate)."""
        return int(self.pragma("user_version")) >= HISTORY

    # ------------------------------------------------------------------ meta

    def meta(self) -> Meta | None:
        row = self._db.execute("SELECT seed, gm_token, created, secret FROM meta WHERE id = 1"
                               ).fetchone()
        return Meta(*row) if row else None

    def write_meta(self, meta: Meta) -> None:
        """Create or replace the meta row."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (id, seed, gm_token, created, secret) "
                       "VALUES (1, ?, ?, ?, ?)",
                       (meta.seed, meta.gm_token, meta.created, meta.secret))

    # ------------------------------------------------------------------ rules versions

    def rules_id(self, fingerprint: str, files: str) -> int:
        """The id of this rules version, stored now if the log does not have it yet."""
        row = self._db.execute("SELECT id FROM rules WHERE fingerprint = ?",
                               (fingerprint,)).fetchone()
        if row is not None:
            return int(row[0])
        with self.transaction() as db:
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

    # ------------------------------------------------------------------ commands and events

    def is_empty(self) -> bool:
        """No command stored yet (a session just created)."""
        return self._db.execute("SELECT 1 FROM commands LIMIT 1").fetchone() is None

    def next_number(self) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM commands").fetchone()
        return int(row[0])

    def append(self, n: int, text: str, name: str, args: Mapping[str, Any], actor: str,
               at: str, events: Sequence[NewEvent], state: StoredState, dice: str | None,
               rules: int | None, undo: int | None = None,
               release: str | None = None,
               house_rules: str | None = None) -> list[dict[str, Any]]:
        """Store a command, its events and the state after it (and mark `undo` undone, delete
        every token of the character `release`, keep the GM's rules in force from this command
        on, `house_rules`) in ONE transaction.

        Returns the stored events as dicts with their seq. Data that is not JSON-safe raises
        before anything is written.
        """
        rows = [self._event_row(e) for e in events]
        base, blob, last = self._pack(n, state)
        with self.transaction() as db:
            if undo is not None:
                db.execute("UPDATE commands SET undone = 1 WHERE n = ?", (undo,))
            if release is not None:
                db.execute("DELETE FROM players WHERE character_id = ?", (release,))
            db.execute("INSERT INTO commands (n, text, name, args, actor, at, dice, rules) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (n, text, name, dumps(args), actor, at, dice, rules))
            db.execute("INSERT INTO states (n, format, base, state) VALUES (?, ?, ?, ?)",
                       (n, state.format, base, blob))
            if house_rules is not None:
                db.execute("INSERT INTO house_rules (n, overrides) VALUES (?, ?)",
                           (n, house_rules))
            stored = []
            for (kind, visibility, event_text, data, code, words), said in zip(
                    rows, [e.text for e in events]):
                cursor = db.execute(
                    "INSERT INTO events (command_n, command, kind, visibility, text, data, code, "
                    "words) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (n, name, kind, visibility, event_text, pack_json(data), code,
                     None if words is None else pack_json(words)))
                stored.append(event_dict(int(cursor.lastrowid or 0), name, kind, visibility,
                                         said, json.loads(data)))
        self._last = last
        return stored

    def _event_row(self, event: NewEvent) -> tuple[Any, ...]:
        """(kind, visibility, text, data, code, words) as stored: the text left out (DERIVED)
        when the event says its code renders it again (the session decides: NewEvent.derived)."""
        data = _compact(event.data)
        if not event.code:
            return event.kind, event.visibility, event.text, data, None, None
        text = DERIVED if event.derived else event.text
        return event.kind, event.visibility, text, data, event.code, _words_json(event.words)

    def _rendered(self, code: str, data: Any, words: Mapping[str, Any]) -> str | None:
        """The text `code` renders from an event's data and words as read back (None: it
        cannot)."""
        if not isinstance(data, dict):
            return None
        try:
            return (self.texts or program_texts)(code, {**data, **words})
        except Exception:  # a template that no longer fits: the text is kept as it is
            return None

    def _text(self, text: str, code: str | None, data: Any, words: str | bytes | None) -> str:
        """An event's text as read: its own, or (DERIVED) rendered again from its code."""
        if text != DERIVED or not code:
            return text
        said = self._rendered(code, data, json.loads(words) if words else {})
        return said if said is not None else text

    def commands(self, after: int = 0) -> list[StoredCommand]:
        """Every stored command numbered above `after`, in order."""
        rows = self._db.execute(
            f"SELECT {COMMAND_COLUMNS} FROM commands WHERE n > ? ORDER BY n",
            (after,)).fetchall()
        return [_command(row) for row in rows]

    def command(self, n: int) -> StoredCommand | None:
        row = self._db.execute(f"SELECT {COMMAND_COLUMNS} FROM commands WHERE n = ?",
                               (n,)).fetchone()
        return _command(row) if row else None

    def last_active(self, skip: Sequence[str]) -> StoredCommand | None:
        """The newest command not undone whose name is not in `skip`."""
        marks = ", ".join("?" for _ in skip) or "''"
        row = self._db.execute(
            f"SELECT {COMMAND_COLUMNS} FROM commands WHERE undone = 0 "
            f"AND name NOT IN ({marks}) ORDER BY n DESC LIMIT 1", tuple(skip)).fetchone()
        return _command(row) if row else None

    def dice_keys(self, shorter_than: int) -> list[str]:
        """The commands' dice keys shorter than `shorter_than` characters, oldest first (a
        campaign's keys from before its secret: companion.history.dice_keys)."""
        rows = self._db.execute("SELECT dice FROM commands WHERE dice IS NOT NULL "
                                "AND length(dice) < ? ORDER BY n", (shorter_than,))
        return [row[0] for row in rows]

    def events_since(self, seq: int = 0) -> list[dict[str, Any]]:
        """Stored events with a seq greater than `seq`, in order."""
        rows = self._db.execute(
            "SELECT seq, command, kind, visibility, text, data, code, words FROM events "
            "WHERE seq > ? ORDER BY seq", (seq,)).fetchall()
        return self._event_dicts(rows)

    def _event_dicts(self, rows: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
        """(seq, command, kind, visibility, text, data, code, words) rows as event dicts."""
        out = []
        for s, c, k, v, t, d, code, words in rows:
            data = json.loads(unpacked(d))
            said = self._text(t, code, data, None if words is None else unpacked(words))
            out.append(event_dict(s, c, k, v, said, data))
        return out

    def stored_since(self, seq: int = 0, limit: int = -1) -> list[tuple[Any, ...]]:
        """The events after `seq` (at most `limit`; -1: all) as kept: (seq, command number,
        command, kind, visibility, text, data, code, words), data and words decoded; a text
        left out (DERIVED) stays empty: whoever reads these renders it from the code, as a
        projection does (rendering every event of a long campaign here would cost the report
        and a new viewer's projection a render each)."""
        return [(s, n, c, k, v, t, _loads(unpacked(d)), code, StoredWords(w) if w else {})
                for s, n, c, k, v, t, d, code, w in self._db.execute(
                    "SELECT seq, command_n, command, kind, visibility, text, data, code, words "
                    "FROM events WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit))]

    def newest_seen(self, before: int, visibilities: Sequence[str] | None = None
                    ) -> tuple[int, int] | None:
        """(seq, command number) of the newest event before `seq` `before` whose visibility is
        one of `visibilities` (None: any); None when there is none."""
        if visibilities is None:
            row = self._db.execute("SELECT seq, command_n FROM events WHERE seq < ? "
                                   "ORDER BY seq DESC LIMIT 1", (before,)).fetchone()
        else:
            marks = ", ".join("?" for _ in visibilities) or "''"
            row = self._db.execute(
                f"SELECT seq, command_n FROM events WHERE seq < ? AND visibility IN ({marks}) "
                "ORDER BY seq DESC LIMIT 1", (before, *visibilities)).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def events_of(self, n: int) -> list[dict[str, Any]]:
        """The events one command produced, in order."""
        rows = self._db.execute(
            "SELECT seq, command, kind, visibility, text, data, code, words FROM events "
            "WHERE command_n = ? ORDER BY seq", (n,)).fetchall()
        return self._event_dicts(rows)

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
                found[seq] = Narration(code, json.loads(unpacked(words)) if words else {})
        return found

    def prompt_ids(self) -> dict[int, int]:
        """For each command that asked for something, the highest prompt id it issued (its
        `pedido` events), undone commands included."""
        highest: dict[int, int] = {}
        for n, data in self._db.execute(
                "SELECT command_n, data FROM events WHERE kind = 'pedido' ORDER BY seq"):
            prompt = json.loads(unpacked(data)).get("pedido")
            if isinstance(prompt, dict) and isinstance(prompt.get("id"), int):
                highest[n] = max(highest.get(n, 0), prompt["id"])
        return highest

    def rows_of(self, table: str) -> list[dict[str, Any]]:
        """Every row of another layer's table in the same file (the voice listener's
        `utterances`), oldest first, by column name; [] when the file has no such table."""
        found = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                 (table,)).fetchone()
        if not found:
            return []
        cursor = self._db.execute(f'SELECT * FROM "{table}" ORDER BY rowid')
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def last_seq(self) -> int:
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        return int(row[0])

    # ------------------------------------------------------------------ states

    def states(self, first: int = -1, last: int | None = None) -> PackedStates:
        """The stored states of the commands numbered first..last (and those before them in
        their chains, from their keyframes), packed as stored."""
        upper = last if last is not None else 1 << 62
        row = self._db.execute("SELECT MIN(COALESCE(base, n)) FROM states WHERE n BETWEEN ? "
                               "AND ?", (first, upper)).fetchone()
        start = row[0] if row and row[0] is not None else first
        rows = {n: (f, b, bytes(blob)) for n, f, b, blob in self._db.execute(
            "SELECT n, format, base, state FROM states WHERE n BETWEEN ? AND ?",
            (min(start, first), upper))}
        return PackedStates(rows)

    def state_after(self, n: int) -> StoredState:
        """The state stored after command n (StateDamaged when it cannot be unpacked)."""
        return self.states(n, n).get(n)

    def state_numbers(self, below: int | None = None) -> list[int]:
        """The commands with a stored state (those numbered below `below`), newest first."""
        upper = below if below is not None else 1 << 62
        return [n for (n,) in self._db.execute(
            "SELECT n FROM states WHERE n < ? ORDER BY n DESC", (upper,))]

    def keyframes(self) -> list[int]:
        """The commands whose state is stored whole."""
        return [n for (n,) in self._db.execute(
            "SELECT n FROM states WHERE base IS NULL ORDER BY n")]

    def _pack(self, n: int, state: StoredState) -> tuple[int | None, bytes, Last]:
        """(keyframe number or None, bytes, what becomes the last state) of a state about to
        be stored after command n: whole after a change of format, when the state before
        cannot be read, or once KEYFRAME_EVERY commands have passed since the last keyframe
        and their deltas weigh KEYFRAME_WEIGHT times as much as it (a large state — thousands
        of secret notes — is kept whole less often; never more than KEYFRAME_MOST commands
        apart); else what
        changed since the last."""
        value = unpack_json(state.raw)
        last = self._newest()
        if last is not None and last.format == state.format and n > last.n:
            since = n - last.keyframe
            if since < KEYFRAME_EVERY or (since < KEYFRAME_MOST and last.deltas
                                          < KEYFRAME_WEIGHT * last.keyframe_bytes):
                blob = pack_delta(delta(last.value, value))
                return last.keyframe, blob, Last(n, state.format, last.keyframe, value,
                                                 last.keyframe_bytes, last.deltas + len(blob))
        blob = pack(value)
        return None, blob, Last(n, state.format, n, value, len(blob), 0)

    def _newest(self) -> Last | None:
        """The newest stored state (read once; None when there is none or it is damaged)."""
        if not self._last_read:
            self._last_read = True
            row = self._db.execute("SELECT n, format, base FROM states ORDER BY n DESC "
                                   "LIMIT 1").fetchone()
            if row is not None:
                try:
                    self._last = self._chain_of(row[0], row[1], row[2])
                except StateDamaged:
                    self._last = None  # the next state starts a new keyframe
        return self._last

    def _chain_of(self, n: int, format: int, base: int | None) -> Last:
        """The stored state after command n as the last one to pack against: its value, its
        keyframe and the bytes of that keyframe and of the deltas after it."""
        key = base if base is not None else n
        whole, deltas = self._db.execute(
            "SELECT SUM(CASE WHEN n = ? THEN length(state) ELSE 0 END), "
            "SUM(CASE WHEN n = ? THEN 0 ELSE length(state) END) FROM states "
            "WHERE n BETWEEN ? AND ? AND (n = ? OR base = ?)",
            (key, key, key, n, key, key)).fetchone()
        return Last(n, format, key, self.states(n, n).value(n), int(whole or 0),
                    int(deltas or 0))

    # ------------------------------------------------------------------ migration

    def fill(self, filled: Sequence[tuple[int, str, int, StoredState]],
             narrations: Mapping[int, tuple[str, Mapping[str, Any]]],
             migration: bool = False) -> None:
        """Store, in ONE transaction, each command's dice key, rules version and state after
        it (n, dice, rules, state) and the narration of events that had none (seq → code,
        words). With `migration` (a log written before stored history), also drop the old
        snapshots and mark the log as keeping history. States are packed from the one stored
        before the first of them; any failure stores nothing (and forgets the packing)."""
        first = min((n for n, *_ in filled), default=0)
        below = self.state_numbers(below=first)
        try:
            if below:
                row = self._db.execute("SELECT format, base FROM states WHERE n = ?",
                                       (below[0],)).fetchone()
                before: Last | None = self._chain_of(below[0], row[0], row[1])
            else:
                before = None
        except StateDamaged:
            before = None
        self._last, self._last_read = before, True
        packed = []
        for n, dice, rules, state in filled:
            base, blob, self._last = self._pack(n, state)
            packed.append((n, dice, rules, state.format, base, blob))
        try:
            self._store_filled(packed, narrations, migration)
        except BaseException:
            self._last, self._last_read = None, False  # read again from what was stored
            raise

    def _store_filled(self, packed: Sequence[tuple[int, str, int, int, int | None, bytes]],
                      narrations: Mapping[int, tuple[str, Mapping[str, Any]]],
                      migration: bool) -> None:
        with self.transaction() as db:
            for n, dice, rules, format, base, blob in packed:
                db.execute("UPDATE commands SET dice = ?, rules = ? WHERE n = ?",
                           (dice, rules, n))
                db.execute("INSERT OR REPLACE INTO states (n, format, base, state) "
                           "VALUES (?, ?, ?, ?)", (n, format, base, blob))
            for seq, (code, words) in narrations.items():
                db.execute("UPDATE events SET code = ?, words = ? WHERE seq = ? AND code IS NULL",
                           (code, pack_json(_words_json(words)), seq))
            if migration:
                db.execute("DROP TABLE IF EXISTS snapshots")
                file_format.record(db)

    # ------------------------------------------------------------------ players

    def add_player(self, token: str, character_id: str, name: str,
                   since: str | None = None) -> None:
        """A token for a character's seat, given at `since`."""
        with self.transaction() as db:
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
