"""The session's log as the pages read it (under the lock), and the subscribers told of each
new batch of events, in order."""
from __future__ import annotations

from companion.history.projection import Quoted, StoredEvent
from companion.session.core import Core, logger, quoted
from companion.session.shapes import EventDict, Subscriber
from companion.store.log import StoredCommand


class Reading(Core):
    """The stored history read back, and its delivery to the subscribers."""

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

    def subscribe(self, callback: Subscriber) -> None:
        """Call `callback(events)` with each batch of new events, in seq order."""
        with self._lock:
            self._subscribers.append(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        with self._lock:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

    def _deliver(self) -> None:
        """Hand queued batches to the subscribers, one drainer at a time, in seq order.

        Called without the session lock held, so a subscriber may read the session or run a
        command (that command's batch is delivered by the loop already running).
        """
        with self._notify_lock:
            if self._draining:
                return
            self._draining = True
            try:
                while True:
                    with self._lock:
                        if not self._pending:
                            return
                        batch = self._pending.popleft()
                        subscribers = list(self._subscribers)
                    for callback in subscribers:
                        self._call(callback, batch)
            finally:
                self._draining = False

    def _call(self, callback: Subscriber, batch: list[EventDict]) -> None:
        try:
            callback(batch)
        except Exception:  # one broken listener must not stop the others
            logger.exception(self.tables.narration.render("sessao.log_assinante", {}))
