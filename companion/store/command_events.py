"""The commands and their events as the log keeps them: numbered, read back in order, an
event's text rendered again when the log left it out (DERIVED: its code says it)."""
from __future__ import annotations

import json
import sqlite3
from typing import Any, Callable, Mapping, Sequence

from companion.store.event_json import StoredWords, unpacked
from companion.store.records import COMMAND_COLUMNS, DERIVED, Narration, NewEvent, StoredCommand
from companion.store.records import command_of, compact, event_dict, loads_stored, program_texts
from companion.store.records import words_json


NEWEST_KEPT = 256  # the newest events kept as read (the live fan-out reads them right back)

# what `forget` gives back to `stored`: last_active's, the next number, the newest seq and
# the newest events
Kept = tuple[dict[tuple[str, ...], StoredCommand | None], int | None, int | None,
             list[tuple[Any, ...]]]


def read_row(row: Sequence[Any]) -> tuple[Any, ...]:
    """An event row (seq, command number, command, kind, visibility, text, data, code, words
    as stored, or data and words as their JSON before packing) as stored_since gives it: data
    decoded, words decoded when first read."""
    s, n, c, k, v, t, d, code, w = row
    return s, n, c, k, v, t, loads_stored(unpacked(d)), code, StoredWords(w) if w else {}


class CommandEvents:
    """The `commands` and `events` tables, read; and each event's row as it is written."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        # how a text left out (DERIVED) is rendered again: the session's narration (None: the
        # program's tables/narracao/, program_texts)
        self.texts: Callable[[str, Mapping[str, Any]], str] | None = None
        # what the newest rows say, kept between commands (each a query otherwise): the
        # newest standing command per `skip` of last_active, the next command number, the
        # newest seq, the newest events as stored_since reads them (the live fan-out asks
        # for each command's events right after it is stored). `forget` empties them before
        # a write; `stored` fills them again only once it committed, so a failed or rolled
        # back transaction leaves none behind.
        self._last_active: dict[tuple[str, ...], StoredCommand | None] = {}
        self._next: int | None = None
        self._last_seq: int | None = None
        self._newest: list[tuple[Any, ...]] = []  # the newest events, seq after seq

    def forget(self) -> Kept:
        """Empty what is kept of the newest rows (before a write); what was kept."""
        kept = self._last_active, self._next, self._last_seq, self._newest
        self._last_active, self._next, self._last_seq, self._newest = {}, None, None, []
        return kept

    def stored(self, kept: Kept, command: StoredCommand, undo: int | None, last_seq: int,
               rows: Sequence[Sequence[Any]] = ()) -> None:
        """After `command` committed (marking `undo` undone) with its event `rows` (as
        written; read_row), its newest event `last_seq`: keep again what `forget` gave, moved
        on by it (an undo drops the standing commands: the next read asks the file)."""
        last_active, next_number, _, newest = kept
        if undo is None:
            self._last_active = {skip: found if command.name in skip else command
                                 for skip, found in last_active.items()}
        if next_number is not None:
            self._next = max(next_number, command.n + 1)
        self._last_seq = last_seq
        fresh = [read_row(row) for row in rows]
        if newest and fresh and newest[-1][0] + 1 != fresh[0][0]:
            newest = []  # not the events just before these: only these are known
        self._newest = (newest + fresh)[-NEWEST_KEPT:]

    def is_empty(self) -> bool:
        """No command stored yet (a session just created)."""
        return self._db.execute("SELECT 1 FROM commands LIMIT 1").fetchone() is None

    def next_number(self) -> int:
        if self._next is None:
            row = self._db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM commands").fetchone()
            self._next = int(row[0])
        return self._next

    def event_row(self, event: NewEvent) -> tuple[Any, ...]:
        """(kind, visibility, text, data, code, words) as stored: the text left out (DERIVED)
        when the event says its code renders it again (the session decides: NewEvent.derived)."""
        known = event.encoded
        data = compact(event.data) if known is None else known.data_json
        if not event.code:
            return event.kind, event.visibility, event.text, data, None, None
        text = DERIVED if event.derived else event.text
        words = words_json(event.words) if known is None else known.words_json
        return event.kind, event.visibility, text, data, event.code, words

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
        return [command_of(row) for row in rows]

    def command(self, n: int) -> StoredCommand | None:
        row = self._db.execute(f"SELECT {COMMAND_COLUMNS} FROM commands WHERE n = ?",
                               (n,)).fetchone()
        return command_of(row) if row else None

    def last_active(self, skip: Sequence[str]) -> StoredCommand | None:
        """The newest command not undone whose name is not in `skip`."""
        key = tuple(skip)
        if key in self._last_active:
            return self._last_active[key]
        marks = ", ".join("?" for _ in skip) or "''"
        row = self._db.execute(
            f"SELECT {COMMAND_COLUMNS} FROM commands WHERE undone = 0 "
            f"AND name NOT IN ({marks}) ORDER BY n DESC LIMIT 1", key).fetchone()
        found = self._last_active[key] = command_of(row) if row else None
        return found

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
        newest = self._newest
        if newest and newest[0][0] <= seq + 1 and newest[-1][0] == self._last_seq:
            after = newest[max(0, seq + 1 - newest[0][0]):]  # seqs follow one another
            return after if limit < 0 else after[:limit]
        return [read_row(row) for row in self._db.execute(
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
        if self._last_seq is None:
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
            self._last_seq = int(row[0])
        return self._last_seq
