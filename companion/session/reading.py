"""The session's log as the pages read it back, under the session's lock."""
from __future__ import annotations

from companion.history.projection import Quoted, StoredEvent
from companion.session.journal import Journal, quoted
from companion.session.shapes import EventDict
from companion.store.log import StoredCommand


class Reader:
    """The stored history read back."""

    def __init__(self, journal: Journal) -> None:
        self._lock = journal.lock
        self._log = journal.log

    def events_since(self, seq: int = 0) -> list[EventDict]:
        with self._lock:
            return self._log.events_since(seq)

    def history_since(self, seq: int = 0, limit: int = -1) -> list[StoredEvent]:
        """The stored events after `seq` (at most `limit`), with how their texts were
        rendered (what a projection reads: companion.history.projection)."""
        with self._lock:
            rows = self._log.stored_since(seq, limit)
        return [StoredEvent(*row) for row in rows]

    def quoted(self, n: int) -> Quoted | None:
        """Command n as an undo quotes it (None: no such command)."""
        with self._lock:
            stored = self._log.command(n)
        return None if stored is None else quoted(stored)

    def events_of(self, n: int) -> list[EventDict]:
        """The events command n produced."""
        with self._lock:
            return self._log.events_of(n)

    def last_seq(self) -> int:
        with self._lock:
            return self._log.last_seq()

    def commands(self) -> list[StoredCommand]:
        with self._lock:
            return self._log.commands()
