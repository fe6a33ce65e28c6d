"""The live server's projections (companion.history.projection): one per viewer that has connected,
advanced incrementally from the session's log, so every connection reads the events, the views
and the refusals in its own numbering.

Thread-safe: the dispatcher thread and the command handlers' threads both use it, under one
lock. A projection is made the first time its viewer connects (it reads the history once; the
GM's reads none of it: Projection.needs_past) and then follows the log: before any question,
every event committed so far is added.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any, Mapping

from companion.history.projection import Projection, StoredEvent, alike_for_all
from companion.server.served import ServedSession
from companion.tables.files import Tables

RECENT = 4096  # stored events kept by seq, to show the ones a command just made
CHUNK = 2000  # events read at a time when a new viewer's projection is made


class Projections:
    """Every viewer's projection of one session's history."""

    def __init__(self, session: ServedSession, tables: Tables) -> None:
        self._session = session
        self._tables = tables
        self._lock = threading.Lock()
        self._upto = 0  # every projection has added the log up to this global seq
        self._viewers: dict[str, Projection] = {}
        self._recent: OrderedDict[int, StoredEvent] = OrderedDict()

    # ------------------------------------------------------------------ following the log

    def _advance(self) -> None:
        """Add the log's new events to every projection (hold the lock)."""
        self._add(self._session.history_since(self._upto))

    def follow(self, after: int, fresh: list[StoredEvent]) -> None:
        """The log's events after global seq `after`, every one of them, as the fan-out just
        read them: added to every projection without reading them again."""
        with self._lock:
            if after <= self._upto:
                self._add([event for event in fresh if event.seq > self._upto])

    def _add(self, fresh: list[StoredEvent]) -> None:
        """Add these events, the log's next ones, to every projection (hold the lock)."""
        for event in fresh:
            for projection in self._viewers.values():
                projection.add(event)
            self._recent[event.seq] = event
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        if fresh:
            self._upto = fresh[-1].seq

    def _of(self, viewer: str, through: int | None = None) -> Projection:
        """The viewer's projection, covering the log at least through global seq `through`
        (None: all of it so far). Hold the lock."""
        if through is None or through > self._upto:
            self._advance()
        projection = self._viewers.get(viewer)
        if projection is None:
            projection = Projection(viewer, self._tables, self._session.quoted)
            if projection.needs_past:
                for event in self._session.history_since(0):
                    if event.seq > self._upto:
                        break
                    projection.add(event)
            else:  # the GM's: nothing of the past to read
                projection.skip_to(self._upto)
            self._viewers[viewer] = projection
        return projection

    def _stored(self, event: StoredEvent | Mapping[str, Any]) -> StoredEvent:
        """The stored form of an event the session returned (hold the lock)."""
        if isinstance(event, StoredEvent):
            return event
        found = self._recent.get(event["seq"])
        if found is None:  # an old one: read that one event
            (found,) = self._session.history_since(event["seq"] - 1, limit=1)
        return found

    def prepare(self, viewer: str) -> None:
        """Make the viewer's projection, if it has none yet, reading the log in chunks
        without holding the lock (nor the session's for long): a long campaign's first
        connection of a viewer does not hold back the others' fan-out while it reads."""
        projection = Projection(viewer, self._tables, self._session.quoted)
        with self._lock:
            if viewer in self._viewers:
                return
            if not projection.needs_past:  # the GM's: made at once, reading nothing old
                self._of(viewer)
                return
        seq = 0
        while chunk := self._session.history_since(seq, limit=CHUNK):
            for event in chunk:
                projection.add(event)
            seq = chunk[-1].seq
        with self._lock:
            if viewer in self._viewers:  # made meanwhile by another thread
                return
            if seq > self._upto:  # it read past the others: they catch up first
                self._advance()
            for event in self._session.history_since(seq):  # then it catches up with them
                if event.seq > self._upto:
                    break
                projection.add(event)
            self._viewers[viewer] = projection

    # ------------------------------------------------------------------ questions

    def show(self, event: StoredEvent | Mapping[str, Any], viewer: str) -> dict[str, Any]:
        """The viewer's copy of an event it may see."""
        seq = event.seq if isinstance(event, StoredEvent) else event["seq"]
        with self._lock:
            projection = self._of(viewer, through=seq)
            return projection.show(self._stored(event))

    def copies(self, event: StoredEvent, viewers: list[str]
               ) -> list[tuple[dict[str, Any], list[str]]]:
        """The distinct copies of a new event for these viewers (who may all see it), each with
        the viewers that read it: an event alike for all (projection.alike_for_all) is
        rendered once and only renumbered; any other, once per viewer, the same copies
        grouped (each distinct copy is encoded once by the fan-out, however many get it)."""
        groups: dict[Any, tuple[dict[str, Any], list[str]]] = {}
        with self._lock:
            if alike_for_all(event):
                first: dict[str, Any] | None = None
                for viewer in viewers:
                    projection = self._of(viewer, through=event.seq)
                    number = projection.number_of(event.seq)
                    group = groups.get(number)
                    if group is None:  # a numbering not met yet: its copy
                        first = projection.show(event) if first is None else first
                        group = groups[number] = (projection.renumbered(first, event), [])
                    group[1].append(viewer)
                return list(groups.values())
            for viewer in viewers:
                local = self._of(viewer, through=event.seq).show(event)
                key = (local["seq"], json.dumps([local["data"], local["text"]], sort_keys=True))
                groups.setdefault(key, (local, []))[1].append(viewer)
        return list(groups.values())

    def show_all(self, events: list[StoredEvent], viewer: str) -> list[dict[str, Any]]:
        """The viewer's copies of events it may see, in one hold of the lock (a welcome's
        replay: taking it once per event starved the commands' fan-out, which needs it too)."""
        if not events:
            return []
        with self._lock:
            projection = self._of(viewer, through=events[-1].seq)
            return [projection.show(event) for event in events]

    def count(self, viewer: str) -> int:
        """How many events of the log, up to now, the viewer sees."""
        with self._lock:
            return self._of(viewer).count()

    def global_after(self, number: int, viewer: str) -> int:
        """The global seq after which the viewer's events numbered above `number` come."""
        with self._lock:
            return self._of(viewer).global_after(number)

    def view(self, view: dict[str, Any], viewer: str, through: int | None = None
             ) -> dict[str, Any]:
        """A view of the state with its prompt ids in the viewer's numbers (`through`: the
        global seq of the newest event the state follows; None: the log's newest)."""
        with self._lock:
            return self._of(viewer, through).view(view)

    def refusal(self, code: str, params: Mapping[str, Any], viewer: str) -> str:
        """A refusal's message rendered for the viewer."""
        with self._lock:
            return self._of(viewer).refusal(code, params)

    def names_prompts(self, params: Mapping[str, Any], viewer: str) -> bool:
        with self._lock:
            return self._of(viewer).names_prompts(params)

    def prompt_numbers(self, viewer: str) -> dict[int, int]:
        """engine id → the viewer's number, for every prompt ever addressed to it."""
        with self._lock:
            return self._of(viewer).prompt_numbers()

    def prompt_id(self, viewer: str, number: int) -> int | None:
        """The engine's id of the viewer's prompt `number` (None: it never had one)."""
        with self._lock:
            return self._of(viewer).prompt_id(number)
