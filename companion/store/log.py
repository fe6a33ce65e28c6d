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
long the campaign. A file written before stored history (`PRAGMA user_version` below HISTORY)
has commands and no states: the session migrates it once.

Each event keeps, beside its text, how the text was rendered (`code`, `words`: the narration
code and the values only the text used), so a viewer's copy can be rendered again in their own
prompt numbers. A log written before these columns existed gets them, empty, when opened.
An event the session marks derived (NewEvent.derived: the session's commit found that its
code renders exactly its text from its data and words; the log stores what it is given) keeps
no text of its own (`text` empty: DERIVED): reading it
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

`Log` is a façade over what the file keeps, one part each: the commands and their events
(companion/store/command_events.py), the states (state_rows.py), the seats' tokens
(tokens.py), the rules versions and the GM's rules (rules_versions.py), over the file itself
(connection.py: the schema, the full disk, the transaction) and the rows' shapes (records.py);
it keeps the meta row and `append`, the one transaction that writes across them. What a
command asks of the newest rows (the newest standing command, the next number, the newest seq)
is kept in memory between commands and moved on only once `append` committed; a failed write
(a full disk) leaves none of itself there, and an undo makes the next read ask the file.

The log is not thread-safe by itself: the Session serialises every call with its lock (the
connection is opened with check_same_thread=False for that reason).
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Callable, ContextManager, Mapping, Sequence

from companion.store import file_format
from companion.store.command_events import CommandEvents
from companion.store.connection import HISTORY, MEMORY, SCHEMA, add_missing_columns, full_disk
from companion.store.connection import transaction
from companion.store.event_json import pack as pack_json
from companion.store.packing import ChangedState, PackedStates, StateDamaged, StoredState
from companion.store.private import create_private
from companion.store.records import DERIVED, Last, Meta, Narration, NewEvent, StoredCommand
from companion.store.records import dumps, encoded, event_dict, program_texts
from companion.store.records import read_back
from companion.store.rules_versions import RulesVersions
from companion.store.state_rows import KEYFRAME_EVERY, KEYFRAME_MOST, KEYFRAME_WEIGHT, StateRows
from companion.store.tokens import Tokens
from companion.tables.errors import DiskFull

__all__ = ["ChangedState", "DERIVED", "HISTORY", "KEYFRAME_EVERY", "KEYFRAME_MOST",
           "KEYFRAME_WEIGHT", "Last", "Log", "MEMORY", "Meta", "Narration", "NewEvent",
           "PackedStates", "StateDamaged", "StoredCommand", "StoredState", "dumps", "encoded",
           "event_dict", "program_texts"]


class Log:
    """An open SQLite log. Create with Log.open(path) (None → in memory) or Log.read(path)."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self._db = connection
        self.path = path
        self.copied: Path | None = None  # the copy left beside the file before it changed
        self._events = events = CommandEvents(connection)
        self._states = states = StateRows(connection)
        tokens, rules = Tokens(connection), RulesVersions(connection)
        # commands and events
        self.is_empty, self.next_number = events.is_empty, events.next_number
        self.commands, self.command = events.commands, events.command
        self.last_active, self.dice_keys = events.last_active, events.dice_keys
        self.events_since, self.events_of = events.events_since, events.events_of
        self.stored_since, self.newest_seen = events.stored_since, events.newest_seen
        self.narrations, self.prompt_ids = events.narrations, events.prompt_ids
        self.rows_of, self.last_seq = events.rows_of, events.last_seq
        # states
        self.states, self.state_after = states.states, states.state_after
        self.state_numbers, self.keyframes = states.state_numbers, states.keyframes
        # seats and tokens
        self.add_player, self.player = tokens.add_player, tokens.player
        self.players, self.seats = tokens.players, tokens.seats
        # rules versions
        self.rules_id, self.rules_text = rules.rules_id, rules.rules_text
        self.last_rules, self.house_rules = rules.last_rules, rules.house_rules
        self.house_rules_rows = rules.house_rules_rows

    @property
    def texts(self) -> Callable[[str, Mapping[str, Any]], str] | None:
        """How a text left out (DERIVED) is rendered again as it is read: the session's
        narration (None: the program's tables/narracao/, program_texts)."""
        return self._events.texts

    @texts.setter
    def texts(self, render: Callable[[str, Mapping[str, Any]], str] | None) -> None:
        self._events.texts = render

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
            with full_disk():  # a new file, or a closed one's -wal and -shm, on a full disk
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
        add_missing_columns(connection)
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if new or version >= HISTORY:  # a file from before stored history: once migrated
            file_format.record(connection)
        return cls(connection, where)

    def close(self) -> None:
        self._db.close()

    def transaction(self) -> ContextManager[sqlite3.Connection]:
        """One atomic write: committed on success, rolled back on any error (DiskFull when the
        disk is full)."""
        return transaction(self._db)

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

    # ------------------------------------------------------------------ commands and events

    def append(self, n: int, text: str, name: str, args: Mapping[str, Any], actor: str,
               at: str, events: Sequence[NewEvent], state: StoredState | ChangedState,
               dice: str | None, rules: int | None, undo: int | None = None,
               release: str | None = None, house_rules: str | None = None
               ) -> list[dict[str, Any]]:
        """Store a command, its events and the state after it (and mark `undo` undone, delete
        every token of the character `release`, keep the GM's rules in force from this command
        on, `house_rules`) in ONE transaction.

        Returns the stored events as dicts with their seq. Data that is not JSON-safe raises
        before anything is written.
        """
        rows = [self._events.event_row(e) for e in events]
        base, blob, last = self._states.pack(n, state)
        first = self._events.last_seq() + 1  # each event's seq: SQLite's own (the newest + 1)
        seqs = range(first, first + len(rows))
        kept = self._events.forget()  # kept again only once committed
        with transaction(self._db) as db:
            if undo is not None:
                db.execute("UPDATE commands SET undone = 1 WHERE n = ?", (undo,))
            if release is not None:
                db.execute("DELETE FROM players WHERE character_id = ?", (release,))
            stored_args = dumps(args)
            db.execute("INSERT INTO commands (n, text, name, args, actor, at, dice, rules) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (n, text, name, stored_args, actor, at, dice, rules))
            db.execute("INSERT INTO states (n, format, base, state) VALUES (?, ?, ?, ?)",
                       (n, state.format, base, blob))
            if house_rules is not None:
                db.execute("INSERT INTO house_rules (n, overrides) VALUES (?, ?)",
                           (n, house_rules))
            written = [(seq, n, name, *row) for seq, row in zip(seqs, rows)]
            db.executemany(
                "INSERT INTO events (seq, command_n, command, kind, visibility, text, data, "
                "code, words) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(seq, n, name, kind, visibility, event_text, pack_json(data), code,
                  None if words is None else pack_json(words))
                 for seq, n, name, kind, visibility, event_text, data, code, words in written])
        self._states.stored(last)
        self._events.stored(kept, StoredCommand(n, text, name, read_back(stored_args), actor,
                                                False, at, dice, rules),
                            undo, seqs[-1] if rows else first - 1, written)
        return [event_dict(seq, name, e.kind, e.visibility, e.text,
                           e.encoded.data if e.encoded is not None else json.loads(row[3]))
                for seq, e, row in zip(seqs, events, rows)]

    def fill(self, *args: Any, **kwargs: Any) -> Any:
        """StateRows.fill (a migration: it writes the commands' dice and rules), forgetting
        what is kept of the newest commands."""
        self._events.forget()
        return self._states.fill(*args, **kwargs)
