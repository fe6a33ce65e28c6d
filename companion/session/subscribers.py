"""The subscribers told of each new batch of stored events, in order, one drainer at a time."""
from __future__ import annotations

import threading
from collections import deque

from companion.session.journal import Journal, logger
from companion.session.rules_in_force import RulesInForce
from companion.session.shapes import EventDict, Subscriber


class Subscribers:
    """Who listens, and the stored batches not yet delivered to them."""

    def __init__(self, journal: Journal, rules: RulesInForce) -> None:
        self._lock = journal.lock  # the queue and the list are the session's, under its lock
        self._rules = rules
        self._notify_lock = threading.RLock()
        self._draining = False
        self._pending: deque[list[EventDict]] = deque()  # stored batches not yet delivered
        self._listeners: list[Subscriber] = []

    def subscribe(self, callback: Subscriber) -> None:
        """Call `callback(events)` with each batch of new events, in seq order."""
        with self._lock:
            self._listeners.append(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        with self._lock:
            if callback in self._listeners:
                self._listeners.remove(callback)

    def queue(self, batch: list[EventDict]) -> None:
        """A stored batch, to deliver once the lock is let go (the lock held)."""
        self._pending.append(batch)

    def deliver(self) -> None:
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
                        listeners = list(self._listeners)
                    for callback in listeners:
                        self._call(callback, batch)
            finally:
                self._draining = False

    def _call(self, callback: Subscriber, batch: list[EventDict]) -> None:
        try:
            callback(batch)
        except Exception:  # one broken listener must not stop the others
            logger.exception(self._rules.render("sessao.log_assinante", {}))
